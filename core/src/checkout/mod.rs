//! Checkout: entry from the cart, orders, and the commerce store port through which an
//! order is placed atomically (stock never oversold, a double submit ordering once, gift
//! cards issued and spent in the same transaction).

mod aftercare;
mod aftercare_mails;
mod aftercare_service;
mod aftercare_store;
mod billing;
mod billing_mails;
mod browser_donation;
mod browser_donation_retry;
mod browser_payment;
mod card_testing;
mod contribution;
mod contribution_payment;
mod contribution_receipt;
mod details;
mod donation;
mod dunning;
mod entry;
mod failed_order;
mod follow_up;
mod fulfilment;
mod ledger;
pub mod mails;
mod memory;
mod order;
mod order_link;
mod payment;
mod payment_events;
mod placed_between;
mod recurring;
mod renewal;
mod renewal_memory;
mod renewal_store;
#[cfg(test)]
mod renewal_tests;
mod service;
mod store;
mod subscription;
mod subscription_link;

#[cfg(any(test, feature = "test-support"))]
pub mod aftercare_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod contribution_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod erasure_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod failed_order_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod held_mail_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod renewal_conformance;
#[cfg(any(test, feature = "test-support"))]
pub mod subscription_conformance;

pub use aftercare::{
    Aftercare, ChangeOrderError, Fulfilment, InvalidRefundLine, InvalidTrackingUrl,
    MAX_TRACKING_URL_LEN, OrderRefund, RefundError, RefundLine, RefundPlan, RefundRequest,
    RefundState, TrackingUrl, charged_cents,
};
pub use aftercare_service::{AftercareError, OrderAftercareService, OrderSummary};
pub use aftercare_store::{
    ChangeOrderStoreError, OrderAftercareStore, RefundOutcome, RequestRefundError,
};
pub use browser_donation::{BrowserDonation, ResumeDonationError, ResumedDonation};
pub use browser_donation_retry::DeclinedDonation;
pub use browser_payment::{
    BrowserCardFields, CARD_FIELDS_NEED_JAVASCRIPT, DONATION_CARD_FIELDS_NEED_JAVASCRIPT,
    IntentReport, IntentRequest, IntentState, OpenIntent, WaitingBrowserPayment,
};
pub use card_testing::{
    AdmitError, CardTestingGuard, FailedPaymentLimits, Payer, PayerPart, PaymentAttemptRefused,
    TOO_MANY_FAILED_PAYMENTS,
};
pub use contribution::{
    Contribution, ContributionStore, DonateError, DonationRequest, DonationService,
    InMemoryContributionStore, RecordContributionError,
};
pub use contribution_payment::{ContributionPayment, ContributionSettlement};
pub use contribution_receipt::{Organisation, RECEIPT_TAX_NOTE, contribution_receipt_mail};
pub use details::{
    CARD_CVC_INVALID, CARD_EXPIRY_INVALID, CARD_NUMBER_INVALID, COUNTRY_INVALID, CheckoutDetails,
    CheckoutFieldErrors, CheckoutForm, CheckoutNeeds, SHIPPING_OPTION_REQUIRED, ShippingAddress,
};
pub use donation::{
    AMOUNT_REQUIRED, DonationCampaign, DonationDetails, DonationForm, DonorDetails, OTHER_AMOUNT,
    amount_invalid, parse_amount,
};
pub use entry::{
    CheckoutEntryRefusal, MAX_HELD_UNITS_PER_CART, MAX_HELD_UNITS_PER_ITEM, SESSION_EXPIRED_ALERT,
    check_hold_caps, enter_checkout, held_message,
};
pub use failed_order::{TakenByPlacing, balance_given_back, payment_fails_order};
pub use follow_up::{
    DEFAULT_REVIEW_REQUEST_DELAY_SECONDS, OrderFollowUp, OrderMails, ScheduledMail,
    ScheduledReviewRequest, review_request_token,
};
pub use fulfilment::OwnerOrder;
pub use ledger::{
    FailedRefund, MemoryPaymentLedger, PAYMENT_REFUNDED_MESSAGE, PaymentLedger, PaymentUse,
    RefundClaim, refund_claimed,
};
pub use memory::InMemoryCommerceStore;
pub use order::{
    CouponLimit, IdempotencyKey, InvalidIdempotencyKey, Order, OrderLine, PlaceOrderError,
};
pub use order_link::{
    InvalidOrderLinkKey, ORDER_LINK_LIFETIME_SECONDS, ORDER_LINK_PARAMETER, OrderLinkError,
    OrderLinkKey, OrderPageAccess, link_access, order_page_access,
};
pub use payment::{
    CANNOT_TAKE_PAYMENTS, CardDetails, DECLINED_MESSAGE, NoPaymentGateway, PartialRefund, Payment,
    PaymentError, PaymentGateway, PaymentRequest, TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS,
    TestPaymentGateway,
};
pub use payment_events::{
    PaymentEvent, PaymentEventLog, PaymentOutcome, PaymentReportInbox, PaymentReports,
    PaymentStatus, ProviderReport, ReceiveReportError, Received, Reconciliation, ReportRefusal,
};
pub use placed_between::PlacedBetween;
pub use service::{
    ABANDONED_BROWSER_PAYMENT_SECONDS, AddGiftCardError, BROWSER_PAYMENT_CANCELLED,
    BrowserCheckout, CartService, CartServiceError, CartUpdate, CheckoutError,
    DEFAULT_HOLD_SECONDS, DeclinedAttempt, EnterCheckoutError, GIFT_CARD_AMOUNT_REQUIRED,
    GIFT_CARD_UNKNOWN, GiftCardAmount, GiftCardBalance, GiftCardForm, GiftCardOffer,
    GiftCardOfferError, InvalidAnswers, LineForm, OTHER_RECIPIENT, ResumePaymentError,
    ResumedPayment,
};
pub use store::{CommerceStore, HoldStockError};
pub use subscription::{Subscription, SubscriptionStatus};
// Recurring billing: saved cards, renewals, dunning and the shopper's subscription links.
pub use billing_mails::{BillingMailKind, billing_mail};
pub use dunning::{
    ATTEMPTS_PER_PERIOD, BillingEvent, BillingStep, PAST_DUE_GRACE_DAYS, RETRY_AFTER_DAYS,
    TransitionError,
};
pub use recurring::{RecurringPayments, RenewalCharge, SaveCardRequest, SavedCard};
pub use renewal::{
    DEFAULT_LEASE_MS, RenewalResult, RenewalRunReport, RenewalService, SubscriptionAction,
    SubscriptionActionError, SubscriptionHolder,
};
pub use renewal_store::{
    ClaimOutcome, RenewalClaim, RenewalOutcome, RenewalRecord, RenewalStore, SubscriptionChange,
};
pub use subscription_link::{
    SUBSCRIPTION_LINK_LIFETIME_SECONDS, SUBSCRIPTION_LINK_PARAMETER, SUBSCRIPTIONS_PATH,
    SubscriptionLinks,
};

/// Where order pages live: `/commerce/orders/{id}` (page type 211) and its `/confirmed`.
pub const ORDERS_PATH: &str = "/commerce/orders";

#[cfg(test)]
mod tests {
    use super::InMemoryCommerceStore;

    crate::commerce_store_conformance!(InMemoryCommerceStore::new());

    mod contributions {
        use crate::checkout::InMemoryContributionStore;

        crate::contribution_store_conformance!(InMemoryContributionStore::new());
    }

    mod subscriptions {
        use super::InMemoryCommerceStore;

        crate::subscription_conformance!(InMemoryCommerceStore::new());
    }

    mod held_mails {
        use std::sync::Arc;

        use super::InMemoryCommerceStore;

        crate::held_mail_conformance!({
            let store = Arc::new(InMemoryCommerceStore::new());
            (store.clone(), store, ())
        });
    }

    mod aftercare {
        use std::sync::Arc;

        use super::InMemoryCommerceStore;
        use crate::checkout::{CommerceStore, OrderAftercareStore};

        fn fresh() -> (Arc<dyn CommerceStore>, Arc<dyn OrderAftercareStore>, ()) {
            let store = Arc::new(InMemoryCommerceStore::new());
            (store.clone(), store, ())
        }

        crate::order_aftercare_conformance!(fresh());
    }

    mod renewals {
        use std::sync::Arc;

        use super::InMemoryCommerceStore;

        crate::renewal_store_conformance!({
            let store = Arc::new(InMemoryCommerceStore::new());
            (store.clone(), store, ())
        });
    }

    mod erasure {
        use super::InMemoryCommerceStore;

        crate::order_erasure_conformance!(InMemoryCommerceStore::new());
    }
}
