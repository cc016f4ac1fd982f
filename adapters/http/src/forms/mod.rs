//! Forms (`core/src/forms`): the form calls of the island and the no-JavaScript form action,
//! their wire format, and the newsletter pages a subscriber reaches from a mail.

pub(crate) mod calls;
pub(crate) mod newsletter_page;
pub(crate) mod page;
pub(crate) mod wire;
