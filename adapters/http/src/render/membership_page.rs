//! The membership-confirmed page (page type 208): the member areas an order bought, with
//! links to their pages once the account of the order's address has joined them, or what to
//! do when no confirmed account holds that address yet; and the subscription that pays for
//! them.

use askama::Template;

use super::subscription_page::SubscriptionFacts;

#[derive(Debug, Clone, Template)]
#[template(path = "commerce/membership.html", whitespace = "minimize")]
pub(crate) struct MembershipMain {
    pub(crate) heading: &'static str,
    pub(crate) lead: String,
    /// Whether the account has joined: the areas' pages are linked only then.
    pub(crate) joined: bool,
    pub(crate) areas: Vec<MembershipAreaView>,
    /// Where a buyer without an account goes to make one.
    pub(crate) sign_up_href: String,
    pub(crate) subscription: Option<SubscriptionFacts>,
}

/// One member area the order bought.
#[derive(Debug, Clone)]
pub(crate) struct MembershipAreaView {
    pub(crate) id: String,
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) pages: Vec<MembershipPageLink>,
}

/// A members-only page of an area.
#[derive(Debug, Clone)]
pub(crate) struct MembershipPageLink {
    pub(crate) title: String,
    pub(crate) href: String,
}
