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

/// A subscription's own page, opened by the signed link in its mails: its facts, where it
/// stands, and the buttons the shopper may use now (pause, resume, cancel, a new card).
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/subscription_manage.html", whitespace = "minimize")]
pub(crate) struct SubscriptionManageMain {
    pub(crate) facts: SubscriptionFacts,
    /// Where it stands, in words.
    pub(crate) standing: String,
    /// The page's own address with its signature, which every form posts back to.
    pub(crate) action_base: String,
    pub(crate) signature: String,
    pub(crate) can_pause: bool,
    pub(crate) can_resume: bool,
    pub(crate) can_cancel: bool,
    pub(crate) can_update_card: bool,
    /// What the last action did, or why it was refused.
    pub(crate) notice: Option<String>,
}

impl SubscriptionManageMain {
    pub(crate) fn new(
        subscription: &Subscription,
        action_base: String,
        signature: String,
        notice: Option<String>,
    ) -> Self {
        use vitrine_core::checkout::SubscriptionStatus as S;
        let name = &subscription.product_name;
        let standing = match subscription.status {
            S::Active if subscription.failed_attempts > 0 => format!(
                "The last payment for {name} was declined. Please update your card: we try again on the next retry date."
            ),
            S::Active => format!("Your subscription to {name} is active."),
            S::PastDue => format!(
                "Your subscription to {name} is past due: every retry of its payment was declined. Update your card to keep it."
            ),
            S::Paused => format!(
                "Your subscription to {name} is paused: nothing is charged until you resume it."
            ),
            S::Cancelled => {
                format!("Your subscription to {name} is cancelled. You will not be charged again.")
            }
            S::Ended => format!(
                "Your subscription to {name} has ended: every payment of its plan was made."
            ),
        };
        let allowed = AllowedActions::of(subscription);
        Self {
            facts: SubscriptionFacts::new(subscription),
            standing,
            action_base,
            signature,
            can_pause: allowed.pause,
            can_resume: allowed.resume,
            can_cancel: allowed.cancel,
            can_update_card: !subscription.status.is_final(),
            notice,
        }
    }
}

/// The buttons a subscription offers its shopper now, on its signed page and on the
/// account page alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AllowedActions {
    pub(crate) pause: bool,
    pub(crate) resume: bool,
    pub(crate) cancel: bool,
}

impl AllowedActions {
    /// A subscription in good standing pauses (one retrying a declined payment does not:
    /// the card comes first), a paused one resumes, and any that has not ended cancels.
    pub(crate) fn of(subscription: &Subscription) -> Self {
        use vitrine_core::checkout::SubscriptionStatus as S;
        Self {
            pause: subscription.status == S::Active && subscription.failed_attempts == 0,
            resume: subscription.status == S::Paused,
            cancel: !subscription.status.is_final(),
        }
    }
}
