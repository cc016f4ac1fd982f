//! Payments whose card the shopper types into the payment provider's own fields in the
//! browser (Stripe's Payment Element), so the card never reaches this server: the server opens
//! a payment intent for the amount due, the browser confirms it with the provider (showing the
//! bank's verification page when the card asks for one), and the server asks the provider what
//! became of it. These are the types of that exchange on the [`PaymentGateway`] port.
//!
//! [`PaymentGateway`]: super::PaymentGateway

use super::order::IdempotencyKey;
use super::payment::Payment;
use crate::money::Currency;

/// What a checkout page needs to show a gateway's own card fields: the key the provider's
/// script identifies the shop with (a publishable key, meant for browsers), where that script
/// is, and the origins the page's Content-Security-Policy must allow for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserCardFields {
    pub publishable_key: String,
    pub script_url: String,
    /// Origins the provider's script is loaded from (`script-src`).
    pub script_origins: Vec<String>,
    /// Origins the provider's script calls (`connect-src`).
    pub connect_origins: Vec<String>,
    /// Origins of the frames the provider's script shows: its fields, the bank's page.
    pub frame_origins: Vec<String>,
}

/// A payment intent to open: the amount due, under the attempt's idempotency key, so the
/// same attempt opens one intent however often it is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntentRequest {
    pub key: IdempotencyKey,
    pub amount_minor: i64,
    pub currency: Currency,
    pub email: String,
    pub description: String,
    /// Whether the card that pays it is kept at the provider for charges made while the
    /// shopper is away (a subscription's renewals): with Stripe, the intent is opened for a
    /// new Customer with `setup_future_usage=off_session`.
    pub save_for_renewals: bool,
}

/// An intent the gateway opened: its id, and the secret the browser confirms it with. The
/// secret lets the browser pay this one intent and nothing else.
#[derive(Clone, PartialEq, Eq)]
pub struct OpenIntent {
    pub id: String,
    pub client_secret: String,
}

// The client secret is handed to one shopper's browser and to no log.
impl std::fmt::Debug for OpenIntent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenIntent")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What the gateway says became of an intent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntentReport {
    /// The idempotency key the intent was opened under, which ties it to its order; none
    /// for an intent this shop did not open.
    pub key: Option<String>,
    pub state: IntentState,
    /// The token of the card the intent kept for renewals (as [`RecurringPayments`] charges
    /// it), once an intent opened with `save_for_renewals` has a card that succeeded.
    ///
    /// [`RecurringPayments`]: super::RecurringPayments
    pub saved_card: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntentState {
    /// The money was taken.
    Succeeded(Payment),
    /// The last attempt failed (a decline, a failed bank verification) and nothing was
    /// taken; `message` says why in the shopper's words. The intent can be confirmed again
    /// with another card.
    Failed { message: String },
    /// The intent was cancelled: it can never be paid, and nothing was taken.
    Canceled,
    /// Not settled yet: the browser has not confirmed it, the bank's verification is still
    /// open, or the provider is still processing it.
    Open,
}

/// An order placed as payment pending that still waits on the intent its payer confirms in
/// the browser, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingBrowserPayment {
    pub order_id: String,
    pub intent_id: String,
    /// When the order was placed and its intent opened.
    pub opened: crate::cart::Timestamp,
}

/// What a donor reads when the intent of their payment was cancelled (our text).
pub const INTENT_CANCELLED: &str = "The payment was cancelled and nothing was charged.";

/// What a shopper reads when a payment needs the browser and this shop cannot load the
/// payment provider's fields (our text).
pub const CARD_FIELDS_NEED_JAVASCRIPT: &str = "Card payment needs JavaScript, which is off or could not load the payment form. Your cart is kept: turn JavaScript on or try another browser, then pay again.";

/// What a donor reads when their donation needs the browser and this site cannot load the
/// payment provider's fields (our text).
pub const DONATION_CARD_FIELDS_NEED_JAVASCRIPT: &str = "Card payment needs JavaScript, which is off or could not load the payment form. Nothing was charged and what you typed is kept: turn JavaScript on or try another browser, then donate again.";
