//! The cart service: what the HTTP adapter calls for every cart operation. It reads the
//! variant from the published catalogue, the stock from the commerce store, applies the
//! cart's rules and stores the result; time and the new cart's token come in as arguments.
//! This file holds the service's errors and its set-up; its calls live beside it by concern:
//! `cart.rs` (reading and editing the cart), `orders.rs` (entering checkout, placing orders,
//! paying), `browser_checkout.rs` (paying with the provider's own card fields in the browser),
//! `browser_retry.rs` (another card after a decline, and payments abandoned in the browser), `gift_cards.rs` and `product_forms.rs`.

use std::sync::Arc;

use crate::cart::{CartError, CartWarning, LineId, ShoppingCart, StoreRules};
use crate::gift_cards::GiftCardCodeSource;
use crate::ports::{RepositoryError, SiteRepository};

use super::card_testing::{CardTestingGuard, PaymentAttemptRefused};
use super::details::CheckoutFieldErrors;
use super::entry::CheckoutEntryRefusal;
use super::follow_up::OrderMails;
use super::order::PlaceOrderError;
use super::payment::{PaymentError, PaymentGateway, TestPaymentGateway};
use super::store::CommerceStore;

mod browser_checkout;
#[cfg(test)]
pub(super) mod browser_checkout_tests;
mod browser_retry;
mod cart;
#[cfg(test)]
mod cart_tests;
#[cfg(test)]
mod checkout_tests;
#[cfg(test)]
mod entry_tests;
#[cfg(test)]
mod failure_tests;
#[cfg(test)]
mod gift_card_tests;
mod gift_cards;
#[cfg(test)]
mod give_back_tests;
mod guarded;
#[cfg(test)]
mod held_gift_card_mail_tests;
mod orders;
mod owner_orders;
#[cfg(test)]
mod pending_tests;

pub use browser_checkout::{BrowserCheckout, ResumePaymentError, ResumedPayment};
pub(crate) use browser_retry::ABANDONED_BATCH;
pub use browser_retry::{
    ABANDONED_BROWSER_PAYMENT_SECONDS, BROWSER_PAYMENT_CANCELLED, DeclinedAttempt,
};
pub use gift_cards::{
    AddGiftCardError, GIFT_CARD_AMOUNT_REQUIRED, GIFT_CARD_UNKNOWN, GiftCardAmount,
    GiftCardBalance, GiftCardForm, GiftCardOffer, GiftCardOfferError, OTHER_RECIPIENT,
};

mod product_forms;
#[cfg(test)]
mod test_shop;

pub use product_forms::{InvalidAnswers, LineForm};

/// Why a cart call did nothing.
#[derive(Debug, thiserror::Error)]
pub enum CartServiceError {
    /// The item is not a published product, or it has no variant with that SKU.
    #[error("no product variant {sku} on item {item}")]
    UnknownVariant { item: String, sku: String },
    /// The request carried no cart (its cookie is gone or cookies are off).
    #[error("no cart")]
    NoCart,
    /// The store offers no coupon with that code.
    #[error("no coupon {0}")]
    UnknownCoupon(String),
    /// The answers to the product's form were refused; a message per field.
    #[error("the product's form has errors: {:?}", .0.errors)]
    InvalidAnswers(Box<InvalidAnswers>),
    /// The line's product asks for nothing (any more), so there is no form to open or save.
    #[error("line {0} has no form")]
    NoProductForm(LineId),
    #[error(transparent)]
    Cart(#[from] CartError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Why a shopper stays on the cart page.
#[derive(Debug, thiserror::Error)]
pub enum EnterCheckoutError {
    #[error("checkout entry refused: {0:?}")]
    Refused(CheckoutEntryRefusal),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Why checking out placed no order.
#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    /// Fields of the checkout form are missing or wrong; a message per field.
    #[error("the checkout form has errors: {0:?}")]
    Invalid(CheckoutFieldErrors),
    /// The gateway declined the card or could not be reached; nothing was charged.
    #[error(transparent)]
    Payment(#[from] PaymentError),
    #[error(transparent)]
    Cart(#[from] CartError),
    #[error(transparent)]
    Order(#[from] PlaceOrderError),
    /// The payer failed to pay too often lately (`card_testing.rs`); nothing was tried.
    #[error(transparent)]
    TooManyFailedPayments(PaymentAttemptRefused),
}

impl From<RepositoryError> for CheckoutError {
    fn from(error: RepositoryError) -> Self {
        Self::Order(PlaceOrderError::Repository(error))
    }
}

/// A cart after an operation, with the operation's own warnings (stock) apart from the
/// cart's standing ones (coupons, minimum subtotal), which are in `cart.warnings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartUpdate {
    pub cart: ShoppingCart,
    pub warnings: Vec<CartWarning>,
}

/// Cart operations over the catalogue and the commerce store.
pub struct CartService {
    site: Arc<dyn SiteRepository>,
    store: Arc<dyn CommerceStore>,
    rules: StoreRules,
    payments: Arc<dyn PaymentGateway>,
    hold_seconds: i64,
    order_mails: OrderMails,
    /// Where gift card codes come from; without one, orders of gift cards cannot be placed.
    gift_card_codes: Option<Arc<dyn GiftCardCodeSource>>,
    /// Counts failed payments per visitor, cart and address (`card_testing.rs`).
    card_testing: CardTestingGuard,
    /// Keeps the card of a subscription order for its renewals; without it none is kept.
    renewals: Option<super::renewal::RenewalService>,
    /// The site's links for the mails that give gift cards to their recipients; without
    /// them no such mail is sent (a server that cannot send mail).
    gift_card_mail_links: Option<crate::forms::SiteLinks>,
}

/// How long a cart's items are held at checkout unless configured otherwise: ten minutes.
pub const DEFAULT_HOLD_SECONDS: i64 = 10 * 60;

impl CartService {
    pub fn new(
        site: Arc<dyn SiteRepository>,
        store: Arc<dyn CommerceStore>,
        rules: StoreRules,
    ) -> Self {
        Self {
            site,
            store,
            rules,
            payments: Arc::new(TestPaymentGateway::new()),
            hold_seconds: DEFAULT_HOLD_SECONDS,
            order_mails: OrderMails::default(),
            gift_card_codes: None,
            card_testing: CardTestingGuard::default(),
            renewals: None,
            gift_card_mail_links: None,
        }
    }

    /// The same service mailing every gift card with a recipient address to its recipient
    /// (now or on the day the buyer chose), with `links` to the site's balance page.
    pub fn with_gift_card_mails(mut self, links: crate::forms::SiteLinks) -> Self {
        self.gift_card_mail_links = Some(links);
        self
    }

    /// The same service counting failed payments with `guard` (in memory by default; a
    /// guard over the shared rate limiter when several servers take payments).
    pub fn with_card_testing(mut self, guard: CardTestingGuard) -> Self {
        self.card_testing = guard;
        self
    }

    /// The same service keeping the card a subscription is bought with through `renewals`,
    /// so that its renewals can be charged.
    pub fn with_renewals(mut self, renewals: super::renewal::RenewalService) -> Self {
        self.renewals = Some(renewals);
        self
    }

    /// The same service sending `mails` about every order it places (none by default).
    pub fn with_order_mails(mut self, mails: OrderMails) -> Self {
        self.order_mails = mails;
        self
    }

    pub fn order_mails(&self) -> OrderMails {
        self.order_mails
    }

    /// The same service issuing gift cards with codes from `codes` (in production, the
    /// operating system's random generator).
    pub fn with_gift_card_codes(mut self, codes: Arc<dyn GiftCardCodeSource>) -> Self {
        self.gift_card_codes = Some(codes);
        self
    }

    /// The same service holding a cart's items for `seconds` at checkout (at least 1).
    pub fn with_hold_seconds(mut self, seconds: i64) -> Self {
        self.hold_seconds = seconds.max(1);
        self
    }

    pub fn hold_seconds(&self) -> i64 {
        self.hold_seconds
    }

    /// The same service taking payments through `payments` (the test gateway by default).
    pub fn with_payments(mut self, payments: Arc<dyn PaymentGateway>) -> Self {
        self.payments = payments;
        self
    }

    pub fn payments(&self) -> &Arc<dyn PaymentGateway> {
        &self.payments
    }

    pub fn rules(&self) -> &StoreRules {
        &self.rules
    }

    pub fn store(&self) -> &Arc<dyn CommerceStore> {
        &self.store
    }
}
