//! The checks every [`CommerceStore`] must pass for the gift card mails an order holds for
//! its payment ([`OrderFollowUp::gift_card_mails_wait_for_payment`]): none goes out while the
//! payment is pending, each goes out once when it succeeds (on the day chosen for it, or at
//! once when that day has passed), and none ever when it fails, since the failure empties the
//! card. The in-memory store, SQLite and PostgreSQL run them through
//! [`held_mail_conformance!`](crate::held_mail_conformance), each with its own view of the
//! mails its orders wrote.

use async_trait::async_trait;

use super::conformance::{cart_with, key, order_for, token};
use super::follow_up::{OrderFollowUp, ScheduledMail};
use super::order::Order;
use super::payment_events::{PaymentEvent, PaymentOutcome, PaymentStatus};
use super::store::CommerceStore;
use crate::cart::Timestamp;
use crate::forms::Mail;

/// What the checks see of the mails a store's orders wrote.
#[async_trait]
pub trait ComposedMailsDue: Send + Sync {
    /// The composed mails that will go out, each with the time it is due, in any order. A
    /// mail held for a payment is not one of them: nothing sends it until it is made due.
    async fn composed_mails_due(&self) -> Vec<ScheduledMail>;
}

#[async_trait]
impl ComposedMailsDue for super::InMemoryCommerceStore {
    async fn composed_mails_due(&self) -> Vec<ScheduledMail> {
        self.gift_card_mails()
    }
}

/// Generates one `#[tokio::test]` per check; `$make` builds a fresh, empty store as
/// `(Arc<dyn CommerceStore>, Arc<dyn ComposedMailsDue>, guard)`, the guard kept alive for
/// the test (it may use `.await`, and may `return` to skip when its database is not
/// configured).
#[macro_export]
macro_rules! held_mail_conformance {
    ($make:expr) => {
        $crate::held_mail_conformance!(@tests $make;
            a_held_gift_card_mail_goes_out_once_on_its_day_when_the_payment_succeeds,
            a_held_gift_card_mail_never_goes_out_when_the_payment_fails,
        );
    };
    (@tests $make:expr; $($name:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $name() {
                let (store, mails, _guard) = $make;
                $crate::checkout::held_mail_conformance::$name(&*store, &*mails).await;
            }
        )*
    };
}

const NOW: Timestamp = super::conformance::NOW;
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

fn gift_card_mail(to: &str) -> Mail {
    Mail {
        to: to.to_owned(),
        subject: "A gift card from Clay Shop".to_owned(),
        text: format!("A gift card for {to}."),
        html: Some(format!("<p>A gift card for {to}.</p>")),
        list_unsubscribe: None,
    }
}

/// Places order `n`, whose gift card mail to `to` is chosen for `due`: as payment pending in
/// the browser, the mail held for the payment, when `pending`; paid otherwise.
async fn placed(
    store: &dyn CommerceStore,
    n: usize,
    to: &str,
    due: Timestamp,
    pending: bool,
) -> Order {
    let cart = cart_with("CARD", 1);
    store.save_cart(&token(n), &cart).await.unwrap();
    let mut order = order_for(&cart, n);
    if pending {
        order.payment_key = key(n).attempt(1).as_str().to_owned();
        order.payment_status = PaymentStatus::Pending;
    } else {
        order.payment_id = format!("pi_paid_{n}");
    }
    let follow_up = OrderFollowUp {
        browser_intent: pending.then(|| intent(n)),
        gift_card_mails: vec![ScheduledMail {
            mail: gift_card_mail(to),
            due,
        }],
        gift_card_mails_wait_for_payment: pending,
        ..OrderFollowUp::default()
    };
    store
        .place_order_with_follow_up(&order, &[], &follow_up)
        .await
        .unwrap()
}

fn intent(n: usize) -> String {
    format!("pi_held_{n}")
}

/// The provider's report `id` that the intent of pending order `n` ended with `outcome`.
fn reported(id: &str, n: usize, order: &Order, outcome: PaymentOutcome) -> PaymentEvent {
    PaymentEvent {
        id: id.to_owned(),
        payment_id: intent(n),
        payment_key: Some(order.payment_key.clone()),
        outcome,
    }
}

/// The mails due, by recipient, with the millisecond each is due at.
async fn due_by_recipient(mails: &dyn ComposedMailsDue) -> Vec<(String, i64)> {
    let mut due: Vec<(String, i64)> = mails
        .composed_mails_due()
        .await
        .into_iter()
        .map(|scheduled| (scheduled.mail.to, scheduled.due.millis()))
        .collect();
    due.sort();
    due
}

pub async fn a_held_gift_card_mail_goes_out_once_on_its_day_when_the_payment_succeeds(
    store: &dyn CommerceStore,
    mails: &dyn ComposedMailsDue,
) {
    let in_a_month = Timestamp(NOW.millis() + 30 * DAY_MS);
    let dated = placed(store, 1, "bea@example.com", in_a_month, true).await;
    let at_once = placed(store, 2, "cy@example.com", NOW, true).await;
    placed(store, 3, "di@example.com", in_a_month, false).await;
    assert_eq!(
        due_by_recipient(mails).await,
        [("di@example.com".to_owned(), in_a_month.millis())],
        "only the paid order's mail is due while the others' payments wait"
    );
    let paid_at = Timestamp(NOW.millis() + DAY_MS);
    // The return address and the webhook both report the success of the dated card's order.
    for id in ["checkout:paid-1", "evt_paid_1"] {
        let succeeded = reported(id, 1, &dated, PaymentOutcome::Succeeded);
        store.reconcile_payment(&succeeded, paid_at).await.unwrap();
    }
    let succeeded = reported("evt_paid_2", 2, &at_once, PaymentOutcome::Succeeded);
    store.reconcile_payment(&succeeded, paid_at).await.unwrap();
    for order in [&dated, &at_once] {
        let stored = store.order(&order.id).await.unwrap().unwrap();
        assert_eq!(stored.payment_status, PaymentStatus::Paid, "{}", order.id);
    }
    assert_eq!(
        due_by_recipient(mails).await,
        [
            ("bea@example.com".to_owned(), in_a_month.millis()),
            ("cy@example.com".to_owned(), paid_at.millis()),
            ("di@example.com".to_owned(), in_a_month.millis()),
        ],
        "one mail each: on its chosen day, or when the payment succeeded once that has passed"
    );
}

pub async fn a_held_gift_card_mail_never_goes_out_when_the_payment_fails(
    store: &dyn CommerceStore,
    mails: &dyn ComposedMailsDue,
) {
    let declined = placed(store, 1, "bea@example.com", NOW, true).await;
    let abandoned = placed(store, 2, "cy@example.com", NOW, true).await;
    // A card declined in the fields leaves the payment open: the mail still waits.
    let decline = reported("evt_declined_1", 1, &declined, PaymentOutcome::Declined);
    store.reconcile_payment(&decline, NOW).await.unwrap();
    assert_eq!(due_by_recipient(mails).await, []);
    // The payer gave up after the decline, and the other one never paid: both intents end.
    for (n, order) in [(1, &declined), (2, &abandoned)] {
        let cancelled = reported(
            &format!("evt_cancelled_{n}"),
            n,
            order,
            PaymentOutcome::Failed,
        );
        store.reconcile_payment(&cancelled, NOW).await.unwrap();
        let stored = store.order(&order.id).await.unwrap().unwrap();
        assert_eq!(stored.payment_status, PaymentStatus::Failed);
    }
    assert_eq!(
        due_by_recipient(mails).await,
        [],
        "no card code for nothing"
    );
    // A success reported after the failure sends none either: the cards were emptied.
    let late = reported("evt_late_2", 2, &abandoned, PaymentOutcome::Succeeded);
    store.reconcile_payment(&late, NOW).await.unwrap();
    assert_eq!(due_by_recipient(mails).await, []);
}
