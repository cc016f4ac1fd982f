//! The payment gateway port and the built-in test gateway the demo pays with. A charge
//! carries the order's idempotency key, so a gateway charges a key once however often it is
//! asked; the order flow relies on that for a double click to pay once.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::browser_payment::{BrowserCardFields, IntentReport, IntentRequest, OpenIntent};
use super::order::IdempotencyKey;
use crate::money::Currency;

/// A card as typed at checkout: digits only, with its expiry and security code.
#[derive(Clone, PartialEq, Eq)]
pub struct CardDetails {
    pub number: String,
    pub expiry_month: u8,
    pub expiry_year: i64,
    pub cvc: String,
}

// Never print a card number or security code into a log.
impl std::fmt::Debug for CardDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CardDetails")
            .field("last4", &self.last4())
            .finish_non_exhaustive()
    }
}

impl CardDetails {
    /// The number without spaces or dashes.
    pub fn normalise_number(text: &str) -> String {
        text.chars().filter(|c| !matches!(c, ' ' | '-')).collect()
    }

    /// 12 to 19 digits that pass the Luhn check.
    pub fn is_valid_number(digits: &str) -> bool {
        if !(12..=19).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        let sum: u32 = digits
            .bytes()
            .rev()
            .enumerate()
            .map(|(index, byte)| {
                let digit = u32::from(byte - b'0');
                if index % 2 == 1 {
                    let doubled = digit * 2;
                    if doubled > 9 { doubled - 9 } else { doubled }
                } else {
                    digit
                }
            })
            .sum();
        sum.is_multiple_of(10)
    }

    pub fn last4(&self) -> &str {
        &self.number[self.number.len().saturating_sub(4)..]
    }
}

/// One charge to make. Every submit of one checkout asks with the same key and the same
/// fields, since a gateway may refuse a key repeated with other parameters (Stripe does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentRequest {
    /// The order's idempotency key: the same key charges once.
    pub key: IdempotencyKey,
    pub amount_minor: i64,
    pub currency: Currency,
    pub card: CardDetails,
    pub email: String,
    pub description: String,
}

/// A charge the gateway made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    /// The gateway's own id of the charge.
    pub id: String,
    pub amount_minor: i64,
    pub currency: Currency,
}

/// Part (or the rest) of a charge to give back, as an owner's refund asks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialRefund {
    /// The gateway's id of the charge.
    pub payment_id: String,
    pub amount_minor: i64,
    pub currency: Currency,
    /// The refund's own id: the gateway gives it back once however often it is asked.
    pub key: String,
}

/// Why a charge was not made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The card's issuer said no; `message` is safe to show the shopper.
    #[error("declined: {message}")]
    Declined { message: String },
    /// The gateway could not be reached or answered something unexpected; nothing was
    /// charged.
    #[error("payment gateway unavailable: {0}")]
    Unavailable(String),
    /// The gateway was asked, but its answer never came (a time-out, a server error): the
    /// charge may or may not have been made. Only the gateway can say which, when asked
    /// again with the same idempotency key or through its own report (a webhook).
    #[error("the payment's outcome is not known: {0}")]
    OutcomeUnknown(String),
    /// The shop has no payment gateway (no provider's key, and test payments are off).
    #[error("no payment gateway is configured")]
    NotConfigured,
}

/// What a shopper reads where a shop without a payment gateway would take a payment.
pub const CANNOT_TAKE_PAYMENTS: &str = "This shop cannot take payments yet.";

/// Takes payments.
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Charges the card; the same `request.key` charges at most once and answers the first
    /// charge again.
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError>;

    /// Gives a charge back in full, as when the order it paid for could not be placed.
    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError>;

    /// Gives back `refund.amount_minor` of a charge (an owner's refund, whole or in part);
    /// the same `refund.key` gives back once. Answers the gateway's id of the refund.
    /// A gateway that cannot give back part of a charge says so, and nothing is refunded.
    async fn refund_part(&self, refund: &PartialRefund) -> Result<String, PaymentError> {
        Err(PaymentError::Unavailable(format!(
            "this payment gateway cannot give back part of charge {}",
            refund.payment_id
        )))
    }

    /// Whether this is a test gateway, so the checkout page can say which cards to use.
    fn is_test(&self) -> bool {
        false
    }

    /// Whether payments can be taken at all; false for [`NoPaymentGateway`].
    fn takes_payments(&self) -> bool {
        true
    }
    /// The gateway's own card fields for the checkout page, when the shopper types the card
    /// there rather than into the checkout form (Stripe's Payment Element); then payments go
    /// through [`Self::open_intent`] and [`Self::intent_report`] instead of [`Self::charge`].
    fn browser_card_fields(&self) -> Option<BrowserCardFields> {
        None
    }

    /// Opens an intent for the browser to confirm; the same `request.key` opens one intent
    /// and answers it again. Nothing is charged until the browser confirms it.
    async fn open_intent(&self, request: &IntentRequest) -> Result<OpenIntent, PaymentError> {
        Err(PaymentError::Unavailable(format!(
            "this payment gateway takes no payments in the browser (attempt {})",
            request.key.as_str()
        )))
    }

    /// What became of the intent `id`, as the gateway tells it (never as a browser says).
    async fn intent_report(&self, id: &str) -> Result<IntentReport, PaymentError> {
        Err(PaymentError::Unavailable(format!(
            "this payment gateway knows no intent {id}"
        )))
    }

    /// Cancels the intent `id` unless it was paid meanwhile, and answers what became of it:
    /// [`IntentState::Canceled`] once it is cancelled (now or before), or
    /// [`IntentState::Succeeded`] when the money was taken first. Asking again is harmless.
    ///
    /// [`IntentState::Canceled`]: super::IntentState::Canceled
    /// [`IntentState::Succeeded`]: super::IntentState::Succeeded
    async fn cancel_intent(&self, id: &str) -> Result<IntentReport, PaymentError> {
        Err(PaymentError::Unavailable(format!(
            "this payment gateway cannot cancel intent {id}"
        )))
    }
}

/// The gateway of a shop that has none: every charge is refused as
/// [`PaymentError::NotConfigured`], so no order that needs a payment is placed. A live shop
/// gets it when neither a payment provider's key nor test payments were configured, rather
/// than the test gateway, which would take orders without taking money.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoPaymentGateway;

#[async_trait]
impl PaymentGateway for NoPaymentGateway {
    async fn charge(&self, _request: &PaymentRequest) -> Result<Payment, PaymentError> {
        Err(PaymentError::NotConfigured)
    }

    async fn refund(&self, _payment: &Payment) -> Result<(), PaymentError> {
        Err(PaymentError::NotConfigured)
    }

    async fn refund_part(&self, _refund: &PartialRefund) -> Result<String, PaymentError> {
        Err(PaymentError::NotConfigured)
    }

    fn takes_payments(&self) -> bool {
        false
    }
}

/// The card number the test gateway charges.
pub const TEST_CARD_SUCCEEDS: &str = "4242424242424242";
/// The card number the test gateway declines.
pub const TEST_CARD_DECLINED: &str = "4000000000000002";
/// What the test gateway says when it declines (our text).
pub const DECLINED_MESSAGE: &str = "Your card was declined. Please use another card.";

/// The built-in test gateway: no money moves. 4242 4242 4242 4242 succeeds, 4000 0000 0000
/// 0002 is declined, and so is any other number, so a real card typed into the demo is
/// never mistaken for a payment.
#[derive(Debug, Default)]
pub struct TestPaymentGateway {
    charges: Mutex<BTreeMap<String, Payment>>,
    refunds: Mutex<Vec<String>>,
    /// Owners' refunds by key: the charge and the amount given back.
    part_refunds: Mutex<BTreeMap<String, (String, i64)>>,
}

impl TestPaymentGateway {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many distinct charges were made (refunded ones included).
    pub fn charge_count(&self) -> usize {
        self.charges.lock().map_or(0, |charges| charges.len())
    }

    /// The owners' refunds made: the charge's id and the amount, in the order of their keys.
    pub fn part_refunds(&self) -> Vec<(String, i64)> {
        self.part_refunds
            .lock()
            .map(|refunds| refunds.values().cloned().collect())
            .unwrap_or_default()
    }

    /// The ids of refunded charges.
    pub fn refunded(&self) -> Vec<String> {
        self.refunds
            .lock()
            .map(|refunds| refunds.clone())
            .unwrap_or_default()
    }
}

#[async_trait]
impl PaymentGateway for TestPaymentGateway {
    async fn charge(&self, request: &PaymentRequest) -> Result<Payment, PaymentError> {
        if request.card.number != TEST_CARD_SUCCEEDS {
            return Err(PaymentError::Declined {
                message: DECLINED_MESSAGE.to_owned(),
            });
        }
        let mut charges = self
            .charges
            .lock()
            .map_err(|_| PaymentError::Unavailable("test gateway state poisoned".into()))?;
        // Named after the key, which is unique per charge asked for: a counter would start
        // again with the server and name a new charge like one already in the database.
        let payment = charges
            .entry(request.key.as_str().to_owned())
            .or_insert_with(|| Payment {
                id: format!("test_ch_{}", request.key.as_str()),
                amount_minor: request.amount_minor,
                currency: request.currency,
            });
        Ok(payment.clone())
    }

    async fn refund(&self, payment: &Payment) -> Result<(), PaymentError> {
        self.refunds
            .lock()
            .map_err(|_| PaymentError::Unavailable("test gateway state poisoned".into()))?
            .push(payment.id.clone());
        Ok(())
    }

    /// Gives back at most what is left of one of its charges, once per key. A charge this
    /// process did not make (the server made it, the command line refunds it) is known by
    /// its id's prefix only; the store has checked the amount against the order already.
    async fn refund_part(&self, refund: &PartialRefund) -> Result<String, PaymentError> {
        let poisoned = || PaymentError::Unavailable("test gateway state poisoned".into());
        let charged = self
            .charges
            .lock()
            .map_err(|_| poisoned())?
            .values()
            .find(|payment| payment.id == refund.payment_id)
            .map(|payment| payment.amount_minor);
        let charged = match charged {
            Some(amount) => amount,
            None if refund.payment_id.starts_with("test_ch_") => i64::MAX,
            None => {
                return Err(PaymentError::Unavailable(format!(
                    "no test charge {}",
                    refund.payment_id
                )));
            }
        };
        let mut refunds = self.part_refunds.lock().map_err(|_| poisoned())?;
        let id = format!("test_re_{}", refund.key);
        if refunds.contains_key(&refund.key) {
            return Ok(id);
        }
        let given_back: i64 = refunds
            .values()
            .filter(|(payment_id, _)| payment_id == &refund.payment_id)
            .map(|(_, amount)| amount)
            .sum();
        let within = given_back
            .checked_add(refund.amount_minor)
            .is_some_and(|total| total <= charged);
        if refund.amount_minor <= 0 || !within {
            return Err(PaymentError::Unavailable(format!(
                "the test charge {} has {} left to refund",
                refund.payment_id,
                charged - given_back
            )));
        }
        refunds.insert(
            refund.key.clone(),
            (refund.payment_id.clone(), refund.amount_minor),
        );
        Ok(id)
    }

    fn is_test(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(number: &str, key: &str) -> PaymentRequest {
        PaymentRequest {
            key: IdempotencyKey::parse(format!("{key:0>16}")).unwrap(),
            amount_minor: 1234,
            currency: Currency::Usd,
            card: CardDetails {
                number: number.into(),
                expiry_month: 12,
                expiry_year: 2030,
                cvc: "123".into(),
            },
            email: "a@example.com".into(),
            description: "Order".into(),
        }
    }

    #[test]
    fn luhn_accepts_test_cards_and_refuses_a_changed_digit() {
        assert!(CardDetails::is_valid_number(TEST_CARD_SUCCEEDS));
        assert!(CardDetails::is_valid_number(TEST_CARD_DECLINED));
        assert!(!CardDetails::is_valid_number("4242424242424241"));
        assert!(!CardDetails::is_valid_number("4242"));
        assert_eq!(
            CardDetails::normalise_number("4242 4242-4242 4242"),
            TEST_CARD_SUCCEEDS
        );
    }

    #[tokio::test]
    async fn the_test_gateway_charges_a_key_once_and_declines_the_documented_card() {
        let gateway = TestPaymentGateway::new();
        let first = gateway
            .charge(&request(TEST_CARD_SUCCEEDS, "k1"))
            .await
            .unwrap();
        let again = gateway
            .charge(&request(TEST_CARD_SUCCEEDS, "k1"))
            .await
            .unwrap();
        assert_eq!(first, again);
        assert_eq!(gateway.charge_count(), 1);
        let declined = gateway.charge(&request(TEST_CARD_DECLINED, "k2")).await;
        assert!(matches!(declined, Err(PaymentError::Declined { .. })));
        assert_eq!(gateway.charge_count(), 1);
        assert!(format!("{:?}", request(TEST_CARD_SUCCEEDS, "k").card).contains("4242"));
        assert!(!format!("{:?}", request(TEST_CARD_SUCCEEDS, "k").card).contains("42424242"));
    }
}
