//! Saved payment methods: the port through which a subscription's card is kept at the
//! payment gateway when it is bought, and charged again for each renewal while the shopper
//! is away ("off session"). The server never keeps a card; it keeps the gateway's token.

use async_trait::async_trait;

use super::order::IdempotencyKey;
use super::payment::{
    CardDetails, Payment, PaymentError, PaymentGateway, PaymentRequest, TEST_CARD_DECLINED,
    TEST_CARD_SUCCEEDS, TestPaymentGateway,
};
use crate::money::Currency;

/// A card to keep for later charges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveCardRequest {
    /// The same key saves once, however often it is asked.
    pub key: IdempotencyKey,
    pub card: CardDetails,
    pub email: String,
}

/// A card the gateway keeps: its token, and the last four digits to show the shopper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCard {
    pub token: String,
    pub last4: String,
}

/// One renewal to charge to a saved card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenewalCharge {
    /// Subscription, period and attempt: the gateway charges a key once.
    pub key: IdempotencyKey,
    pub payment_method: String,
    pub amount_minor: i64,
    pub currency: Currency,
    pub email: String,
    pub description: String,
}

/// Keeps cards and charges them without the shopper.
#[async_trait]
pub trait RecurringPayments: Send + Sync {
    async fn save_card(&self, request: &SaveCardRequest) -> Result<SavedCard, PaymentError>;

    /// Charges the saved card; the same `charge.key` charges at most once and answers the
    /// first charge again, as [`PaymentGateway::charge`] does.
    async fn charge_saved(&self, charge: &RenewalCharge) -> Result<Payment, PaymentError>;
}

/// The test gateway's tokens: `test_pm_` and the last four digits. It can only keep its own
/// two test cards, so the token is the card: no state is lost when the server restarts, and
/// a saved decline card keeps declining, which is what dunning tests need.
const TEST_TOKEN_PREFIX: &str = "test_pm_";

#[async_trait]
impl RecurringPayments for TestPaymentGateway {
    async fn save_card(&self, request: &SaveCardRequest) -> Result<SavedCard, PaymentError> {
        let number = request.card.number.as_str();
        if number != TEST_CARD_SUCCEEDS && number != TEST_CARD_DECLINED {
            return Err(PaymentError::Declined {
                message: super::payment::DECLINED_MESSAGE.to_owned(),
            });
        }
        let last4 = request.card.last4().to_owned();
        Ok(SavedCard {
            token: format!("{TEST_TOKEN_PREFIX}{last4}"),
            last4,
        })
    }

    async fn charge_saved(&self, charge: &RenewalCharge) -> Result<Payment, PaymentError> {
        let number = match charge.payment_method.strip_prefix(TEST_TOKEN_PREFIX) {
            Some("4242") => TEST_CARD_SUCCEEDS,
            Some("0002") => TEST_CARD_DECLINED,
            _ => {
                return Err(PaymentError::Unavailable(format!(
                    "the test gateway saved no card {:?}",
                    charge.payment_method
                )));
            }
        };
        self.charge(&PaymentRequest {
            key: charge.key.clone(),
            amount_minor: charge.amount_minor,
            currency: charge.currency,
            card: CardDetails {
                number: number.to_owned(),
                expiry_month: 12,
                expiry_year: 9999,
                cvc: String::new(),
            },
            email: charge.email.clone(),
            description: charge.description.clone(),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(number: &str) -> SaveCardRequest {
        SaveCardRequest {
            key: IdempotencyKey::parse("save-card-key-1").unwrap(),
            card: CardDetails {
                number: number.into(),
                expiry_month: 12,
                expiry_year: 2030,
                cvc: "123".into(),
            },
            email: "clay@example.com".into(),
        }
    }

    fn renewal(token: &str, key: &str) -> RenewalCharge {
        RenewalCharge {
            key: IdempotencyKey::parse(key).unwrap(),
            payment_method: token.into(),
            amount_minor: 2500,
            currency: Currency::Eur,
            email: "clay@example.com".into(),
            description: "Clay Club".into(),
        }
    }

    #[tokio::test]
    async fn the_test_gateway_saves_its_cards_and_charges_each_renewal_key_once() {
        let gateway = TestPaymentGateway::new();
        let saved = gateway.save_card(&card(TEST_CARD_SUCCEEDS)).await.unwrap();
        assert_eq!(saved.last4, "4242");
        let first = gateway
            .charge_saved(&renewal(&saved.token, "renewal-sub-p1"))
            .await
            .unwrap();
        let again = gateway
            .charge_saved(&renewal(&saved.token, "renewal-sub-p1"))
            .await
            .unwrap();
        assert_eq!(first, again);
        assert_eq!(gateway.charge_count(), 1);

        let declining = gateway.save_card(&card(TEST_CARD_DECLINED)).await.unwrap();
        let declined = gateway
            .charge_saved(&renewal(&declining.token, "renewal-sub-p2"))
            .await;
        assert!(matches!(declined, Err(PaymentError::Declined { .. })));
        let unknown = gateway
            .charge_saved(&renewal("pm_elsewhere", "renewal-sub-p3"))
            .await;
        assert!(matches!(unknown, Err(PaymentError::Unavailable(_))));
        assert!(matches!(
            gateway.save_card(&card("4111111111111111")).await,
            Err(PaymentError::Declined { .. })
        ));
    }
}
