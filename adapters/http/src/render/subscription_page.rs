//! The subscription confirmed page (page type 206): the plan in words, what one period
//! costs, when the subscription started and when the next payment falls due. The facts are
//! a part of their own, which the membership-confirmed page (208) shows too.

use askama::Template;
use vitrine_core::checkout::Subscription;

use super::commerce_pages::money_text;
use super::dates::{DisplayDate, display_date};

#[derive(Debug, Clone, Template)]
#[template(path = "commerce/subscription.html", whitespace = "minimize")]
pub(crate) struct SubscriptionMain {
    pub(crate) lead: String,
    pub(crate) facts: SubscriptionFacts,
}

impl SubscriptionMain {
    pub(crate) fn new(subscription: &Subscription) -> Self {
        Self {
            lead: format!(
                "Thank you. Your subscription to {} has started and its first payment was received.",
                subscription.product_name
            ),
            facts: SubscriptionFacts::new(subscription),
        }
    }
}

/// A subscription's plan, price, dates and order, as a list of facts.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/subscription_facts.html", whitespace = "minimize")]
pub(crate) struct SubscriptionFacts {
    pub(crate) product: String,
    pub(crate) quantity: u32,
    /// "Every month, until cancelled".
    pub(crate) plan: String,
    pub(crate) price: String,
    pub(crate) started: Option<DisplayDate>,
    /// None when every payment of the plan is made.
    pub(crate) next_billing: Option<DisplayDate>,
    /// "Until cancelled" or a count.
    pub(crate) payments_left: String,
    pub(crate) order_id: String,
}

// Its `Display` is this template, escaped already: nested as it is.
impl askama::filters::HtmlSafe for SubscriptionFacts {}

impl SubscriptionFacts {
    pub(crate) fn new(subscription: &Subscription) -> Self {
        Self {
            product: subscription.product_name.clone(),
            quantity: subscription.quantity,
            plan: subscription.plan.describe(),
            price: money_text(subscription.price_cents, subscription.currency),
            started: display_date(subscription.started.millis()),
            next_billing: subscription
                .next_billing
                .and_then(|due| display_date(due.millis())),
            payments_left: subscription
                .payments_left()
                .map_or_else(|| "Until cancelled".to_owned(), |left| left.to_string()),
            order_id: subscription.order_id.clone(),
        }
    }
}
