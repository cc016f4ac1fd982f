//! The renewal service over the in-memory store and the built-in test gateway: renewals
//! charged once, dunning to the end, a new card, a gateway without an answer, and the
//! shopper's cancel, pause and resume.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;

use super::memory::InMemoryCommerceStore;
use super::order::IdempotencyKey;
use super::order_link::OrderLinkKey;
use super::payment::{
    CardDetails, Payment, PaymentError, TEST_CARD_DECLINED, TEST_CARD_SUCCEEDS, TestPaymentGateway,
};
use super::recurring::{RecurringPayments, RenewalCharge, SaveCardRequest, SavedCard};
use super::renewal::{RenewalResult, RenewalRunReport, RenewalService, SubscriptionActionError};
use super::renewal_store::{RenewalOutcome, RenewalStore};
use super::subscription::{Subscription, SubscriptionStatus};
use super::subscription_conformance::{FEBRUARY_28, monthly_for, ordered};
use super::subscription_link::SubscriptionLinks;
use crate::cart::{Stock, Timestamp};

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn at(days: i64) -> Timestamp {
    Timestamp(FEBRUARY_28.millis() + days * DAY_MS)
}

fn card(number: &str) -> CardDetails {
    CardDetails {
        number: number.into(),
        expiry_month: 12,
        expiry_year: 2030,
        cvc: "123".into(),
    }
}

struct Fixture {
    store: Arc<InMemoryCommerceStore>,
    gateway: Arc<TestPaymentGateway>,
    service: RenewalService,
}

/// A monthly subscription (order 1, `cycles` payments in all) whose card is `number`.
async fn fixture(cycles: u32, number: &str) -> (Fixture, Subscription) {
    let store = Arc::new(InMemoryCommerceStore::new());
    let gateway = Arc::new(TestPaymentGateway::new());
    let service = RenewalService::new(
        store.clone(),
        gateway.clone(),
        SubscriptionLinks::new("https://shop.example", &OrderLinkKey::new([3; 32])),
    );
    let order = ordered(&*store, 1, Some(monthly_for(cycles)), Stock::Unlimited, 1).await;
    crate::checkout::CommerceStore::place_order(&*store, &order, &[])
        .await
        .unwrap();
    let subscription = service
        .save_checkout_card(
            "order-1-subscription",
            &IdempotencyKey::parse("subscription-key-0001").unwrap(),
            card(number),
            order.created,
        )
        .await
        .unwrap();
    (
        Fixture {
            store,
            gateway,
            service,
        },
        subscription,
    )
}

impl Fixture {
    async fn current(&self) -> Subscription {
        self.store
            .find_subscription("order-1-subscription")
            .await
            .unwrap()
            .unwrap()
    }

    fn subjects(&self) -> Vec<String> {
        self.store
            .renewal_mails()
            .into_iter()
            .map(|mail| mail.subject)
            .collect()
    }
}

#[tokio::test]
async fn a_due_renewal_is_charged_once_however_often_the_run_goes() {
    let (fixture, subscription) = fixture(3, TEST_CARD_SUCCEEDS).await;
    assert_eq!(subscription.payment_method.as_deref(), Some("test_pm_4242"));
    let early = fixture.service.run_due(at(-1), 10).await.unwrap();
    assert_eq!(early, RenewalRunReport::default());
    let report = fixture.service.run_due(at(0), 10).await.unwrap();
    assert_eq!(report.paid, 1);
    let again = fixture.service.run_due(at(0), 10).await.unwrap();
    assert_eq!(again, RenewalRunReport::default());
    // Replaying the same subscription as read before the run changes nothing either.
    assert_eq!(
        fixture.service.renew(&subscription, at(0)).await.unwrap(),
        RenewalResult::Skipped
    );
    assert_eq!(fixture.gateway.charge_count(), 1);
    let renewed = fixture.current().await;
    assert_eq!(renewed.payments_made, 2);
    assert_eq!(renewed.status, SubscriptionStatus::Active);
    // The third and last payment ends the plan.
    let report = fixture.service.run_due(at(40), 10).await.unwrap();
    assert_eq!(report.paid, 1);
    assert_eq!(fixture.current().await.status, SubscriptionStatus::Ended);
    assert_eq!(fixture.gateway.charge_count(), 2);
    assert_eq!(
        fixture.subjects(),
        vec![
            "Your Clay Club subscription is renewed",
            "Your Clay Club subscription is renewed"
        ]
    );
    let records = fixture.service.records(&renewed.id).await.unwrap();
    let periods: Vec<u32> = records.iter().map(|record| record.claim.period).collect();
    assert_eq!(periods, vec![1, 2]);
    assert!(matches!(
        records[0].outcome,
        Some(RenewalOutcome::Paid { .. })
    ));
}

#[tokio::test]
async fn a_declined_card_is_retried_after_one_three_and_five_days_then_past_due_then_cancelled() {
    let (fixture, _) = fixture(0, TEST_CARD_DECLINED).await;
    let mut statuses = Vec::new();
    for day in [0, 1, 3, 5] {
        // A run a day early finds nothing.
        if day > 0 {
            let early = fixture.service.run_due(at(day - 1), 10).await.unwrap();
            assert_eq!(early.declined, 0, "day {day}");
        }
        let report = fixture.service.run_due(at(day), 10).await.unwrap();
        assert_eq!(report.declined, 1, "day {day}");
        statuses.push(fixture.current().await.status);
    }
    use SubscriptionStatus::{Active, Cancelled, PastDue};
    assert_eq!(statuses, vec![Active, Active, Active, PastDue]);
    assert_eq!(
        fixture.service.run_due(at(11), 10).await.unwrap().cancelled,
        0
    );
    assert_eq!(
        fixture.service.run_due(at(12), 10).await.unwrap().cancelled,
        1
    );
    assert_eq!(fixture.current().await.status, Cancelled);
    assert_eq!(fixture.gateway.charge_count(), 0);
    assert_eq!(
        fixture.subjects(),
        vec![
            "We could not renew your Clay Club subscription",
            "We could not renew your Clay Club subscription",
            "We could not renew your Clay Club subscription",
            "Your Clay Club subscription is past due",
            "Your Clay Club subscription is cancelled",
        ]
    );
    let mails = fixture.store.renewal_mails();
    assert!(
        mails[0].text.contains("We will try again on 1 March 2026."),
        "{}",
        mails[0].text
    );
    assert!(
        mails[3].text.contains("cancelled on 12 March 2026"),
        "{}",
        mails[3].text
    );
    assert!(mails[..4].iter().all(|mail| mail.text.contains("#card")));
    let attempts: Vec<u32> = fixture
        .service
        .records("order-1-subscription")
        .await
        .unwrap()
        .iter()
        .map(|record| record.claim.attempt)
        .collect();
    assert_eq!(attempts, vec![0, 1, 2, 3]);
}

#[tokio::test]
async fn a_new_card_in_dunning_is_charged_at_the_next_run() {
    let (fixture, _) = fixture(0, TEST_CARD_DECLINED).await;
    fixture.service.run_due(at(0), 10).await.unwrap();
    let updated = fixture
        .service
        .update_card("order-1-subscription", card(TEST_CARD_SUCCEEDS), at(0))
        .await
        .unwrap();
    assert_eq!(updated.payment_method.as_deref(), Some("test_pm_4242"));
    let report = fixture.service.run_due(at(0), 10).await.unwrap();
    assert_eq!(report.paid, 1);
    let paid = fixture.current().await;
    assert_eq!((paid.payments_made, paid.failed_attempts), (2, 0));
    assert_eq!(fixture.gateway.charge_count(), 1);
    let refused = fixture
        .service
        .update_card("order-1-subscription", card("4111111111111111"), at(1))
        .await;
    assert!(matches!(refused, Err(SubscriptionActionError::Card(_))));
}

/// The test gateway behind a gateway that gives no answer to the first `silent` charges,
/// as a network that drops the reply after the charge was made.
struct Unanswered {
    inner: TestPaymentGateway,
    silent: AtomicUsize,
}

#[async_trait]
impl RecurringPayments for Unanswered {
    async fn save_card(&self, request: &SaveCardRequest) -> Result<SavedCard, PaymentError> {
        self.inner.save_card(request).await
    }

    async fn charge_saved(&self, charge: &RenewalCharge) -> Result<Payment, PaymentError> {
        let charged = self.inner.charge_saved(charge).await;
        let left = self.silent.load(Ordering::SeqCst);
        if left > 0 {
            self.silent.store(left - 1, Ordering::SeqCst);
            return Err(PaymentError::OutcomeUnknown("the reply was lost".into()));
        }
        charged
    }
}

#[tokio::test]
async fn a_charge_without_an_answer_is_asked_again_under_its_key_once_the_lease_ends() {
    let (fixture, _) = fixture(0, TEST_CARD_SUCCEEDS).await;
    let gateway = Arc::new(Unanswered {
        inner: TestPaymentGateway::new(),
        silent: AtomicUsize::new(1),
    });
    let service = RenewalService::new(
        fixture.store.clone(),
        gateway.clone(),
        fixture.service.links().clone(),
    )
    .with_lease_ms(60_000);
    let report = service.run_due(at(0), 10).await.unwrap();
    assert_eq!(report.unsettled, 1);
    assert_eq!(gateway.inner.charge_count(), 1, "charged, answer lost");
    // Within the lease nobody asks again; after it, the same key answers the first charge.
    assert_eq!(service.run_due(at(0), 10).await.unwrap().skipped, 1);
    let later = Timestamp(at(0).millis() + 60_000);
    assert_eq!(service.run_due(later, 10).await.unwrap().paid, 1);
    assert_eq!(gateway.inner.charge_count(), 1);
    assert_eq!(fixture.current().await.payments_made, 2);
}

#[tokio::test]
async fn shoppers_pause_resume_and_cancel_and_get_a_mail_each_time() {
    let (fixture, _) = fixture(0, TEST_CARD_SUCCEEDS).await;
    let id = "order-1-subscription";
    let paused = fixture.service.pause(id, at(-5)).await.unwrap();
    assert_eq!(paused.status, SubscriptionStatus::Paused);
    assert_eq!(
        fixture.service.run_due(at(20), 10).await.unwrap(),
        RenewalRunReport::default()
    );
    let resumed = fixture.service.resume(id, at(20)).await.unwrap();
    assert_eq!(resumed.skipped_periods, 1);
    assert!(resumed.next_billing.unwrap() > at(20));
    let cancelled = fixture.service.cancel(id, at(21)).await.unwrap();
    assert_eq!(cancelled.status, SubscriptionStatus::Cancelled);
    assert!(matches!(
        fixture.service.cancel(id, at(22)).await,
        Err(SubscriptionActionError::NotAllowed(_))
    ));
    assert!(matches!(
        fixture.service.cancel("order-9-subscription", at(22)).await,
        Err(SubscriptionActionError::Unknown(_))
    ));
    assert_eq!(
        fixture.service.run_due(at(400), 10).await.unwrap(),
        RenewalRunReport::default()
    );
    assert_eq!(fixture.gateway.charge_count(), 0);
    assert_eq!(
        fixture.subjects(),
        vec![
            "Your Clay Club subscription is paused",
            "Your Clay Club subscription is resumed",
            "Your Clay Club subscription is cancelled",
        ]
    );
}

/// A monthly subscription (order 1) bought without a card being saved.
async fn without_a_card() -> (
    Arc<InMemoryCommerceStore>,
    Arc<TestPaymentGateway>,
    RenewalService,
) {
    let store = Arc::new(InMemoryCommerceStore::new());
    let order = ordered(&*store, 1, Some(monthly_for(0)), Stock::Unlimited, 1).await;
    crate::checkout::CommerceStore::place_order(&*store, &order, &[])
        .await
        .unwrap();
    let gateway = Arc::new(TestPaymentGateway::new());
    let service = RenewalService::new(
        store.clone(),
        gateway.clone(),
        SubscriptionLinks::new("https://shop.example", &OrderLinkKey::new([3; 32])),
    );
    (store, gateway, service)
}

#[tokio::test]
async fn a_card_the_gateway_kept_at_checkout_is_recorded_once_and_renewals_charge_it() {
    let (_, gateway, service) = without_a_card().await;
    // Kept while the shopper paid in the browser: recorded without asking the gateway.
    let kept = service
        .record_checkout_card("order-1-subscription", "test_pm_4242".into(), at(0))
        .await
        .unwrap();
    assert_eq!(kept.payment_method.as_deref(), Some("test_pm_4242"));
    // The return and the webhook both record it: the first card stays.
    let again = service
        .record_checkout_card("order-1-subscription", "test_pm_0002".into(), at(0))
        .await
        .unwrap();
    assert_eq!(again.payment_method.as_deref(), Some("test_pm_4242"));
    assert_eq!(gateway.charge_count(), 0);
    let due = again.next_billing.unwrap();
    assert_eq!(service.run_due(due, 10).await.unwrap().paid, 1);
    assert!(matches!(
        service
            .record_checkout_card("order-2-subscription", "test_pm_4242".into(), at(0))
            .await,
        Err(SubscriptionActionError::Unknown(_))
    ));
}

#[tokio::test]
async fn a_subscription_without_a_saved_card_goes_into_dunning() {
    let (store, gateway, service) = without_a_card().await;
    assert_eq!(service.run_due(at(0), 10).await.unwrap().declined, 1);
    let stored = store
        .find_subscription("order-1-subscription")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.failed_attempts, 1);
    assert_eq!(gateway.charge_count(), 0);
}

#[tokio::test]
async fn an_account_changes_only_the_subscriptions_of_its_own_address() {
    use super::renewal::SubscriptionAction;
    let (fixture, subscription) = fixture(0, TEST_CARD_SUCCEEDS).await;
    use super::renewal::SubscriptionHolder;
    let address = subscription.email.to_uppercase();
    let owner = SubscriptionHolder {
        account: "ada",
        email: &address,
        held_since: None,
    };
    let id = subscription.id.as_str();
    for email in ["someone@example.com", ""] {
        let stranger = SubscriptionHolder {
            account: "bo",
            email,
            held_since: None,
        };
        let refused = fixture
            .service
            .act_for(&stranger, id, SubscriptionAction::Cancel, at(1))
            .await
            .unwrap_err();
        assert!(
            matches!(&refused, SubscriptionActionError::Unknown(found) if found == id),
            "{email}: {refused:?}"
        );
    }
    // An account that confirmed the address only after the subscription started (the
    // address was somebody else's then) does not hold it; one whose hold began before does.
    let newcomer = SubscriptionHolder {
        account: "bo",
        email: &address,
        held_since: Some(subscription.started),
    };
    assert!(!newcomer.holds(&subscription));
    let refused = fixture
        .service
        .act_for(&newcomer, id, SubscriptionAction::Cancel, at(1))
        .await;
    assert!(matches!(refused, Err(SubscriptionActionError::Unknown(_))));
    assert!(
        fixture
            .service
            .of_holder(&newcomer)
            .await
            .unwrap()
            .is_empty()
    );
    let earlier_holder = SubscriptionHolder {
        held_since: Some(crate::cart::Timestamp(subscription.started.millis() - 1)),
        ..owner
    };
    assert!(earlier_holder.holds(&subscription));
    assert_eq!(fixture.current().await.status, SubscriptionStatus::Active);
    let paused = fixture
        .service
        .act_for(&owner, id, SubscriptionAction::Pause, at(1))
        .await
        .unwrap();
    assert_eq!(paused.status, SubscriptionStatus::Paused);
    let resumed = fixture
        .service
        .act_for(&owner, id, SubscriptionAction::Resume, at(2))
        .await
        .unwrap();
    assert_eq!(resumed.status, SubscriptionStatus::Active);
    let cancelled = fixture
        .service
        .act_for(&owner, id, SubscriptionAction::Cancel, at(3))
        .await
        .unwrap();
    assert_eq!(cancelled.status, SubscriptionStatus::Cancelled);
    assert!(matches!(
        fixture
            .service
            .act_for(&owner, id, SubscriptionAction::Resume, at(4))
            .await,
        Err(SubscriptionActionError::NotAllowed(_))
    ));
    assert!(matches!(
        fixture
            .service
            .act_for(
                &owner,
                "order-404-subscription",
                SubscriptionAction::Pause,
                at(4)
            )
            .await,
        Err(SubscriptionActionError::Unknown(_))
    ));
    assert_eq!(
        SubscriptionAction::parse("pause"),
        Some(SubscriptionAction::Pause)
    );
    assert_eq!(
        fixture.service.of_holder(&owner).await.unwrap().len(),
        1,
        "an unclaimed subscription of the address is listed for its account"
    );
    assert_eq!(SubscriptionAction::parse("card"), None);
}

#[tokio::test]
async fn a_claimed_subscription_is_managed_by_its_account_whatever_its_address() {
    use super::renewal::{SubscriptionAction, SubscriptionHolder};
    let (fixture, subscription) = fixture(0, TEST_CARD_SUCCEEDS).await;
    let id = subscription.id.as_str();
    crate::checkout::CommerceStore::claim_subscription(&*fixture.store, id, "ada")
        .await
        .unwrap();
    // The account moved to another address since it bought the subscription.
    let moved = SubscriptionHolder {
        account: "ada",
        email: "ada.new@example.com",
        held_since: None,
    };
    // Another account now holds the address the subscription was bought with.
    let newcomer = SubscriptionHolder {
        account: "bo",
        email: &subscription.email,
        held_since: None,
    };
    let listed = fixture.service.of_holder(&moved).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(
        fixture
            .service
            .of_holder(&newcomer)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(matches!(
        fixture
            .service
            .act_for(&newcomer, id, SubscriptionAction::Cancel, at(1))
            .await,
        Err(SubscriptionActionError::Unknown(_))
    ));
    let paused = fixture
        .service
        .act_for(&moved, id, SubscriptionAction::Pause, at(1))
        .await
        .unwrap();
    assert_eq!(paused.status, SubscriptionStatus::Paused);
    assert_eq!(
        fixture.current().await.account.as_deref(),
        Some("ada"),
        "a change of the subscription keeps its account"
    );
}
