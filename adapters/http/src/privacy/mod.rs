//! Privacy and analytics (`core/src/consent`, `analytics`): cookie consent and its receipts,
//! the census and event calls, and quick views.

pub(crate) mod census;
pub(crate) mod consent;
pub(crate) mod events;
pub(crate) mod quick_view;
