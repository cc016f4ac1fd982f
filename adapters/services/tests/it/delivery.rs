//! Deliveries end to end on a real SQLite database: the outbox written with the submission,
//! the worker sending through the SMTP and webhook adapters to local servers, retries with
//! backoff, and a restart that resumes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tempfile::TempDir;
use vitrine_core::forms::submission::{KEY_BYTES, fingerprint};
use vitrine_core::forms::{
    DeliveryChannels, DeliveryKind, DeliveryService, FieldValue, FollowUp, NewSubmission,
    NewsletterService, RetryPolicy, SaveOutcome, SiteLinks, SubmissionKey, SubmittedValues,
    TokenOutcome,
};
use vitrine_services::{DeliveryWorker, SignedWebhook, SmtpMailer, run_deliveries};

use crate::smtp_sink::SmtpSink;
use crate::webhook_receiver::{Receiver, SECRET};

const OWNER: &str = "owner@example.com";
const SITE: &str = "https://shop.example";

async fn database(dir: &TempDir) -> vitrine_sql::Database {
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(dir.path()))
        .await
        .unwrap();
    database.migrate().await.unwrap();
    database
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Stores a contact submission as the form service would, with `deliveries` enqueued.
async fn submit(
    database: &vitrine_sql::Database,
    seed: u8,
    message: &str,
    follow_up: FollowUp,
    subscription: Option<&str>,
) -> i64 {
    let store = database.form_store();
    let key = SubmissionKey::from_random([seed; KEY_BYTES]);
    store.issue(&key, now() + 60).await.unwrap();
    let values = SubmittedValues(vec![("message".into(), FieldValue::Single(message.into()))]);
    let submission = NewSubmission {
        form_id: "contact".into(),
        collection_id: None,
        object_name: String::new(),
        is_overlay_form: false,
        spam: false,
        subscription: subscription.map(str::to_owned),
        created_at: now(),
        follow_up,
        values,
    };
    let print = fingerprint("contact", "", &submission.values);
    match store.save(&key, &print, &submission, now()).await.unwrap() {
        SaveOutcome::Stored { id } => id,
        outcome => panic!("stored, got {outcome:?}"),
    }
}

fn owner_follow_up(kinds: &[DeliveryKind]) -> FollowUp {
    FollowUp {
        deliveries: kinds.to_vec(),
        tokens: None,
    }
}

fn service(
    database: &vitrine_sql::Database,
    smtp_url: Option<&str>,
    webhook: Option<url::Url>,
    policy: RetryPolicy,
) -> Arc<DeliveryService> {
    let channels = DeliveryChannels {
        mailer: smtp_url
            .map(|url| Arc::new(SmtpMailer::new(url, "Vitrine <site@shop.example>").unwrap()) as _),
        owner_email: Some(OWNER.into()),
        webhook: webhook.map(|url| Arc::new(SignedWebhook::new(url, SECRET)) as _),
    };
    Arc::new(DeliveryService::new(
        database.delivery_outbox(),
        channels,
        SiteLinks::new(SITE),
        policy,
    ))
}

/// Waits until `done` holds, for at most 10 seconds.
async fn eventually(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the outbox records `count` deliveries as delivered, for at most 10 seconds.
async fn recorded_as_delivered(database: &vitrine_sql::Database, count: usize) {
    let start = Instant::now();
    loop {
        let records = database.delivery_outbox().deliveries().await.unwrap();
        if records.iter().filter(|r| r.delivered_ms.is_some()).count() >= count {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {count} deliveries recorded as delivered"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn start_worker(service: Arc<DeliveryService>) -> DeliveryWorker {
    let worker = DeliveryWorker::new();
    tokio::spawn(run_deliveries(
        service,
        worker.clone(),
        Some(Duration::from_millis(20)),
    ));
    worker
}

#[tokio::test]
async fn a_submission_reaches_the_owner_by_mail_and_by_signed_webhook() {
    let dir = TempDir::new().unwrap();
    let database = database(&dir).await;
    let (sink, smtp_url) = SmtpSink::start().await;
    let (receiver, hook_url) = Receiver::start(0).await;
    let id = submit(
        &database,
        1,
        "Hello from the contact form",
        owner_follow_up(&[DeliveryKind::OwnerEmail, DeliveryKind::Webhook]),
        None,
    )
    .await;
    let worker = start_worker(service(
        &database,
        Some(&smtp_url),
        Some(hook_url),
        RetryPolicy::default(),
    ));
    eventually("both deliveries", || {
        !sink.messages().is_empty() && !receiver.accepted().is_empty()
    })
    .await;
    // The worker records a delivery after its send returns; the receivers see it before.
    recorded_as_delivered(&database, 2).await;
    worker.stop();

    let mail = &sink.messages()[0];
    assert_eq!(mail.rcpt, ["<owner@example.com>"]);
    assert!(
        mail.data.contains("Subject: New submission to contact"),
        "{}",
        mail.data
    );
    assert!(
        mail.data.contains("message: Hello from the contact form"),
        "{}",
        mail.data
    );
    let hit = &receiver.accepted()[0];
    assert_eq!(hit.body["event"], "form.submission");
    assert_eq!(hit.body["submission"]["id"], id);
    assert_eq!(
        hit.body["submission"]["values"]["message"],
        "Hello from the contact form"
    );
    let records = database.delivery_outbox().deliveries().await.unwrap();
    assert!(
        records
            .iter()
            .all(|r| r.delivered_ms.is_some() && r.attempts == 1)
    );
}

#[tokio::test]
async fn a_failing_webhook_is_retried_with_backoff_until_it_succeeds() {
    let dir = TempDir::new().unwrap();
    let database = database(&dir).await;
    let (receiver, hook_url) = Receiver::start(2).await;
    submit(
        &database,
        2,
        "retry me",
        owner_follow_up(&[DeliveryKind::Webhook]),
        None,
    )
    .await;
    let policy = RetryPolicy {
        first_delay_ms: 200,
        max_delay_ms: 1_000,
        max_attempts: 5,
        lease_ms: 5_000,
    };
    let worker = start_worker(service(&database, None, Some(hook_url), policy));
    eventually("an accepted webhook", || !receiver.accepted().is_empty()).await;
    recorded_as_delivered(&database, 1).await;
    worker.stop();

    let hits = receiver.hits();
    let statuses: Vec<u16> = hits.iter().map(|hit| hit.status).collect();
    assert_eq!(statuses, [503, 503, 200]);
    assert!(
        hits.iter().all(|hit| hit.delivery == hits[0].delivery),
        "one delivery id"
    );
    assert!(
        hits[1].at - hits[0].at >= Duration::from_millis(200),
        "first backoff"
    );
    assert!(
        hits[2].at - hits[1].at >= Duration::from_millis(400),
        "doubled backoff"
    );
    let records = database.delivery_outbox().deliveries().await.unwrap();
    assert_eq!(records[0].attempts, 3);
    assert!(records[0].delivered_ms.is_some());
    assert_eq!(
        records[0].last_error.as_deref(),
        Some("the webhook answered 503 Service Unavailable")
    );
}

#[tokio::test]
async fn a_restart_resumes_deliveries_left_in_the_outbox() {
    let dir = TempDir::new().unwrap();
    // A port with nothing listening: the mail server is down.
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let smtp_url = format!("smtp://{addr}");
    // A minute ahead, so the submissions below are due by then even when the clock's second
    // turns while the database is created.
    let start = (now() + 60) * 1000;
    {
        let database = database(&dir).await;
        submit(
            &database,
            3,
            "first",
            owner_follow_up(&[DeliveryKind::OwnerEmail]),
            None,
        )
        .await;
        let round = service(&database, Some(&smtp_url), None, RetryPolicy::default())
            .run_due(start)
            .await
            .unwrap();
        assert_eq!(round.retried, 1, "the refused connection is retried later");
        submit(
            &database,
            4,
            "second",
            owner_follow_up(&[DeliveryKind::OwnerEmail]),
            None,
        )
        .await;
        // A worker that claims the second delivery and dies before sending it.
        let claimed = database
            .delivery_outbox()
            .claim_due(start, RetryPolicy::default().lease_ms, 10)
            .await
            .unwrap();
        assert_eq!(claimed.len(), 1);
        database.close().await;
    }

    // The next process, once the mail server is back and the retry and the lease are due.
    let sink = SmtpSink::start_at(addr).await;
    let database = database(&dir).await;
    let later = start + RetryPolicy::default().lease_ms;
    let round = service(&database, Some(&smtp_url), None, RetryPolicy::default())
        .run_due(later)
        .await
        .unwrap();
    assert_eq!(round.delivered, 2);
    let mut bodies: Vec<bool> = sink
        .messages()
        .iter()
        .map(|mail| mail.data.contains("message: first"))
        .collect();
    bodies.sort();
    assert_eq!(bodies, [false, true], "each submission mailed once");
}

#[tokio::test]
async fn double_opt_in_mails_the_link_and_tells_the_owner_once_confirmed() {
    let dir = TempDir::new().unwrap();
    let database = database(&dir).await;
    let (sink, smtp_url) = SmtpSink::start().await;
    let (receiver, hook_url) = Receiver::start(0).await;
    let key = SubmissionKey::from_random([5; KEY_BYTES]);
    let tokens = vitrine_core::forms::newsletter::subscription_tokens(&key, true);
    let follow_up = FollowUp {
        deliveries: vec![DeliveryKind::SubscriptionConfirmation],
        tokens: Some(tokens.clone()),
    };
    submit(
        &database,
        5,
        "ada@example.com",
        follow_up,
        Some("ada@example.com"),
    )
    .await;
    let deliveries = service(
        &database,
        Some(&smtp_url),
        Some(hook_url),
        RetryPolicy::default(),
    );
    assert_eq!(deliveries.run_due(now() * 1000).await.unwrap().delivered, 1);
    let mail = &sink.messages()[0];
    assert_eq!(mail.rcpt, ["<ada@example.com>"]);
    let confirm = tokens.confirm.unwrap();
    assert!(
        mail.decoded()
            .contains(&format!("{SITE}/newsletter/confirm?token={confirm}"))
    );
    assert!(mail.data.contains(&format!(
        "List-Unsubscribe: <{SITE}/newsletter/unsubscribe?token={}>",
        tokens.unsubscribe
    )));
    assert!(
        receiver.hits().is_empty(),
        "the owner waits for the confirmation"
    );

    let newsletter = NewsletterService::new(
        database.newsletter_subscriptions(),
        vec![DeliveryKind::Webhook],
    );
    assert_eq!(
        newsletter.confirm(&confirm, now()).await.unwrap(),
        TokenOutcome::Done
    );
    assert_eq!(deliveries.run_due(now() * 1000).await.unwrap().delivered, 1);
    let hit = &receiver.accepted()[0];
    assert_eq!(hit.body["event"], "newsletter.subscription");
    assert_eq!(hit.body["subscriber"]["email"], "ada@example.com");
    assert_eq!(
        hit.body["subscriber"]["unsubscribeUrl"],
        format!("{SITE}/newsletter/unsubscribe?token={}", tokens.unsubscribe)
    );
}

#[tokio::test]
async fn an_order_mails_its_confirmation_at_once_and_its_review_request_a_week_later() {
    use vitrine_core::cart::Timestamp;
    use vitrine_core::checkout::conformance::{flat_rate_rules, paid_checkout_form};
    use vitrine_core::checkout::{CartService, IdempotencyKey, OrderMails};
    use vitrine_core::reviews::ReviewService;

    const WEEK_MS: i64 = 7 * 24 * 60 * 60 * 1000;
    let dir = TempDir::new().unwrap();
    let database = database(&dir).await;
    let (sink, smtp_url) = SmtpSink::start().await;
    let repository = database.repository();
    repository
        .replace_site(&vitrine_core::ports::conformance::fixture_site("Shop"))
        .await
        .unwrap();
    let carts = CartService::new(repository, database.commerce_store(), flat_rate_rules())
        .with_order_mails(OrderMails {
            confirmation: true,
            review_request_delay_seconds: Some(WEEK_MS / 1000),
        });
    let buyer = vitrine_core::cart::CartToken::parse("delivery-test-cart-1").unwrap();
    let placed_at = Timestamp(now() * 1000);
    carts
        .add_item(
            &buyer,
            &vitrine_core::site::ItemId::parse("tote").unwrap(),
            &vitrine_core::catalog::Sku::parse("TOTE-1").unwrap(),
            2,
            placed_at,
        )
        .await
        .unwrap();
    let form = paid_checkout_form("shopper@example.com");
    let order = carts
        .checkout(
            &buyer,
            IdempotencyKey::parse("delivery-test-key-1").unwrap(),
            "order-delivery-1".into(),
            &form,
            placed_at,
        )
        .await
        .unwrap();

    let deliveries = service(&database, Some(&smtp_url), None, RetryPolicy::default());
    let round = deliveries.run_due(placed_at.millis()).await.unwrap();
    assert_eq!(round.delivered, 1, "the confirmation goes at once");
    let confirmation = &sink.messages()[0];
    assert_eq!(confirmation.rcpt, ["<shopper@example.com>"]);
    let text = confirmation.decoded();
    assert!(text.contains("Subject: Order confirmed"), "{text}");
    assert!(text.contains("2 x Post tote (TOTE-1): $40.00"), "{text}");
    assert!(text.contains("Total: $45.00"), "{text}");
    assert!(
        text.contains(&format!("{SITE}/commerce/orders/order-delivery-1")),
        "{text}"
    );
    // Every mail carries both parts, the HTML one with the order's link clickable.
    assert!(
        text.contains("Content-Type: multipart/alternative"),
        "{text}"
    );
    assert!(
        text.contains("Content-Type: text/plain; charset=utf-8"),
        "{text}"
    );
    assert!(
        text.contains("Content-Type: text/html; charset=utf-8"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "<a href=\"{SITE}/commerce/orders/order-delivery-1"
        )),
        "{text}"
    );
    assert_eq!(
        deliveries
            .run_due(placed_at.millis() + WEEK_MS - 1)
            .await
            .unwrap()
            .handled(),
        0,
        "the review request waits a week"
    );

    let round = deliveries
        .run_due(placed_at.millis() + WEEK_MS)
        .await
        .unwrap();
    assert_eq!(round.delivered, 1);
    let request_mail = &sink.messages()[1];
    assert_eq!(request_mail.rcpt, ["<shopper@example.com>"]);
    let token = vitrine_core::checkout::review_request_token(&order);
    let text = request_mail.decoded();
    assert!(text.contains("Subject: How was your order?"), "{text}");
    assert!(text.contains("- Post tote"), "{text}");
    assert!(
        text.contains(&format!(
            "{SITE}/commerce/review-request?token={}",
            token.as_str()
        )),
        "{text}"
    );
    // The link opens the request, with the tote waiting for its review.
    let (_, pending) = ReviewService::new(database.review_store())
        .open(&token, Timestamp(placed_at.millis() + WEEK_MS))
        .await
        .unwrap();
    assert_eq!(pending[0].sku.as_str(), "TOTE-1");
    assert_eq!(sink.messages().len(), 2, "each mail once");
}
