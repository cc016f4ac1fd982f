//! Saved cards and renewals through the Stripe gateway against the local fake: a card kept as
//! a customer's default PaymentMethod, renewals as off-session PaymentIntents charged once per
//! key (also when the answer was lost and the call is repeated), and the declines dunning acts
//! on, including a bank that wants the cardholder present.

use std::time::Duration;

use vitrine_core::checkout::{
    CardDetails, IdempotencyKey, PaymentError, RecurringPayments, RenewalCharge, SaveCardRequest,
};
use vitrine_core::money::Currency;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};
use vitrine_services::{RENEWAL_NEEDS_CONFIRMATION, StripeGateway, StripeRetries, StripeSecretKey};

fn gateway(fake: &FakeStripe) -> StripeGateway {
    StripeGateway::new(
        fake.base().clone(),
        StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
    )
    .with_retries(StripeRetries {
        attempts: 3,
        first_delay: Duration::from_millis(20),
        timeout: Duration::from_secs(5),
    })
}

fn save(key: &str, number: &str) -> SaveCardRequest {
    SaveCardRequest {
        key: IdempotencyKey::parse(format!("card-{key:0>16}")).unwrap(),
        card: CardDetails {
            number: number.into(),
            expiry_month: 12,
            expiry_year: 2040,
            cvc: "123".into(),
        },
        email: "member@example.com".into(),
    }
}

fn renewal(token: &str, key: &str) -> RenewalCharge {
    RenewalCharge {
        key: IdempotencyKey::parse(key).unwrap(),
        payment_method: token.into(),
        amount_minor: 1900,
        currency: Currency::Eur,
        email: "member@example.com".into(),
        description: "1 × Clay Club, renewal 1".into(),
    }
}

#[tokio::test]
async fn a_saved_card_is_charged_off_session_once_per_renewal_key() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let saved = gateway
        .save_card(&save("a1", cards::SUCCEEDS))
        .await
        .unwrap();
    let (customer, method) = saved.token.split_once(':').unwrap();
    assert!(
        customer.starts_with("cus_") && method.starts_with("pm_"),
        "{saved:?}"
    );
    assert_eq!(saved.last4, "4242");
    assert_eq!(
        fake.customers(),
        vec![(customer.to_owned(), "member@example.com".to_owned())]
    );
    // Saving again under the same key keeps the same card.
    assert_eq!(
        gateway
            .save_card(&save("a1", cards::SUCCEEDS))
            .await
            .unwrap(),
        saved
    );

    let charge = renewal(&saved.token, "renewal-order-1-subscription-p1");
    let first = gateway.charge_saved(&charge).await.unwrap();
    // The answer was lost and the runner asks again: the same intent, no second charge.
    let again = gateway.charge_saved(&charge).await.unwrap();
    assert_eq!(first, again);
    let intents = fake.payment_intents();
    assert_eq!(intents.len(), 1);
    assert_eq!(intents[0].status, "succeeded");
    assert_eq!(intents[0].amount, 1900);
    assert_eq!(
        intents[0]
            .metadata
            .get("vitrine_renewal_key")
            .map(String::as_str),
        Some("renewal-order-1-subscription-p1")
    );
    let next = gateway
        .charge_saved(&renewal(&saved.token, "renewal-order-1-subscription-p2"))
        .await
        .unwrap();
    assert_ne!(next.id, first.id);
    assert_eq!(fake.payment_intents().len(), 2);
}

#[tokio::test]
async fn declines_and_a_bank_asking_for_the_cardholder_are_declines_for_dunning() {
    let fake = FakeStripe::start().await;
    let gateway = gateway(&fake);
    let declining = gateway
        .save_card(&save("b1", cards::INSUFFICIENT_FUNDS))
        .await
        .unwrap();
    let declined = gateway
        .charge_saved(&renewal(
            &declining.token,
            "renewal-order-2-subscription-p1",
        ))
        .await;
    assert_eq!(
        declined,
        Err(PaymentError::Declined {
            message: "Your card has insufficient funds.".into()
        })
    );
    let asking = gateway
        .save_card(&save("b2", cards::AUTHENTICATION_REQUIRED))
        .await
        .unwrap();
    let declined = gateway
        .charge_saved(&renewal(&asking.token, "renewal-order-3-subscription-p1"))
        .await;
    assert!(
        matches!(&declined, Err(PaymentError::Declined { message }) if message.contains("requires authentication") || message == RENEWAL_NEEDS_CONFIRMATION),
        "{declined:?}"
    );
    // A token of another provider, or another customer's method, is never charged.
    assert!(matches!(
        gateway
            .charge_saved(&renewal("test_pm_4242", "renewal-order-4-subscription-p1"))
            .await,
        Err(PaymentError::Unavailable(_))
    ));
    let (_, method) = declining.token.split_once(':').unwrap();
    let (other_customer, _) = asking.token.split_once(':').unwrap();
    let mixed = format!("{other_customer}:{method}");
    assert!(matches!(
        gateway
            .charge_saved(&renewal(&mixed, "renewal-order-5-subscription-p1"))
            .await,
        Err(PaymentError::Unavailable(_))
    ));
    assert!(matches!(
        gateway.save_card(&save("b3", "4111111111111111")).await,
        Err(PaymentError::Declined { .. })
    ));
}
