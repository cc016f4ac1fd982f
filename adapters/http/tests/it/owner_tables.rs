//! Router tests of the owner's tables at `/config/`: each role sees the tables its codes
//! allow and acts only where they allow it (403 otherwise), every action repeats the
//! session's CSRF token, paging and search come from the store, the CSV export is quoted and
//! defuses formulas, and a moderated review shows (or not) on its product page.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::Timestamp;
use vitrine_core::cart::{CartState, CartToken, StoreRules};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::{
    CartService, CommerceStore, InMemoryCommerceStore, TestPaymentGateway,
};
use vitrine_core::consent::{
    ConsentChoice, ConsentReceipt, ConsentReceiptStore, ConsentSource, MemoryConsentReceiptStore,
    ReceiptId,
};
use vitrine_core::enums::ContributorRole;
use vitrine_core::forms::conformance::{key, submission};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{
    FollowUp, FormService, NewSubmission, NewsletterService, SubmissionStore, SubscriptionTokens,
};
use vitrine_core::owners::{InMemoryOwnerStore, OwnerLimits, OwnerPorts, OwnerService};
use vitrine_core::pages::PageService;
use vitrine_core::people::{PasswordCost, PasswordHasher};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::reviews::conformance::fixture_order;
use vitrine_core::reviews::{InMemoryReviewStore, Review, ReviewService, ReviewStore, StarRating};
use vitrine_http::AppState;
use vitrine_http::site_users::OsSecrets;

use crate::support::{Answer, config, cookie_value, fixture_assets, send, set_cookie, site};

const PASSWORD: &str = "correct horse";
const NOW_SECONDS: i64 = 1_700_000_000;

struct Harness {
    router: Router,
    owners: Arc<OwnerService>,
    payments: Arc<TestPaymentGateway>,
}

/// A session of a new account: its cookie and CSRF token.
struct Session {
    cookie: String,
    csrf: String,
}

fn now() -> Timestamp {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    Timestamp(i64::try_from(seconds).unwrap() * 1000)
}

fn tote_review(id: &str, order: &str, author: &str, created: i64) -> Review {
    Review {
        id: id.into(),
        order_id: order.into(),
        sku: Sku::parse("TOTE-1").unwrap(),
        product_name: "Tote".into(),
        rating: StarRating::new(4).unwrap(),
        title: format!("Review by {author}"),
        body: "Holds everything.".into(),
        author_name: author.into(),
        created: Timestamp(created),
        hidden: false,
        reply: None,
    }
}

/// The fixture site with 30 contact messages (one naming Ada Lovelace, one holding a formula
/// and a comma) and a newsletter sign-up, two reviews of the tote, two orders (one paid with
/// a charge, one with nothing charged) and a consent receipt.
async fn harness() -> Harness {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site()).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let forms = Arc::new(MemoryFormStore::new());
    for n in 1..=30u8 {
        let text = match n {
            5 => "Order for Ada Lovelace".to_owned(),
            6 => "=HYPERLINK(\"http://evil.example\"), then more".to_owned(),
            _ => format!("message {n}"),
        };
        let mut new = submission(&text);
        new.created_at = NOW_SECONDS + i64::from(n);
        forms
            .save(&key(n), &format!("print-{n}"), &new, NOW_SECONDS)
            .await
            .unwrap();
    }
    let reviews = Arc::new(InMemoryReviewStore::new());
    reviews
        .add_review(&tote_review("rev-ada", "order-1", "Ada", 1_000))
        .await
        .unwrap();
    reviews
        .add_review(&tote_review("rev-grace", "order-2", "Grace", 2_000))
        .await
        .unwrap();
    let owners = Arc::new(OwnerService::new(
        OwnerPorts {
            store: Arc::new(InMemoryOwnerStore::new()),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(OsSecrets),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
        },
        OwnerLimits::default(),
    ));
    let commerce = Arc::new(InMemoryCommerceStore::new());
    // A charge of the test gateway another process made is known by its id's prefix.
    for (n, payment_id) in [(1, "test_ch_1"), (2, "")] {
        let mut order = fixture_order(&format!("order-{n}"));
        order.cart_token = CartToken::parse(format!("cart-token-000000000{n}")).unwrap();
        order.payment_id = payment_id.into();
        order.created = Timestamp(1_000 * n);
        let cart = CartState::new("cart", "site", Timestamp(0));
        commerce.save_cart(&order.cart_token, &cart).await.unwrap();
        commerce.place_order(&order, &[]).await.unwrap();
    }
    let payments = Arc::new(TestPaymentGateway::new());
    let carts = CartService::new(repository.clone(), commerce.clone(), StoreRules::default())
        .with_payments(payments.clone());
    let aftercare = vitrine_core::checkout::OrderAftercareService::new(
        commerce,
        payments.clone(),
        vitrine_core::forms::SiteLinks::new("https://shop.example"),
    );
    let receipts = Arc::new(MemoryConsentReceiptStore::new());
    receipts
        .record(&ConsentReceipt {
            id: ReceiptId::new("receipt-1").unwrap(),
            banner_version: 3,
            choice: ConsentChoice::Declined,
            source: ConsentSource::Gpc,
            recorded_at_ms: 5_000,
        })
        .await
        .unwrap();
    forms
        .save(
            &key(200),
            "print-letter",
            &NewSubmission {
                form_id: "letter".into(),
                subscription: Some("reader@example.com".into()),
                follow_up: FollowUp {
                    deliveries: vec![],
                    tokens: Some(SubscriptionTokens {
                        unsubscribe: "ab".repeat(32),
                        confirm: None,
                    }),
                },
                ..submission("reader@example.com")
            },
            NOW_SECONDS,
        )
        .await
        .unwrap();
    let form_service = FormService::new(
        repository.clone(),
        forms.clone(),
        forms.clone(),
        Arc::new(MemoryRateLimiter::new()),
    );
    let state = AppState::new(pages, repository, Arc::new(fixture_assets()), config())
        .with_owners(owners.clone())
        .with_forms(Arc::new(form_service))
        .with_reviews(Arc::new(ReviewService::new(reviews)))
        .with_carts(Arc::new(carts))
        .with_order_aftercare(Arc::new(aftercare))
        .with_newsletter(Arc::new(NewsletterService::new(forms, Vec::new())))
        .with_consent_receipts(receipts, None);
    Harness {
        router: vitrine_http::router(state),
        owners,
        payments,
    }
}

impl Harness {
    async fn send(&self, request: Request<Body>) -> Answer {
        send(&self.router, request).await
    }

    async fn signed_in_as(&self, email: &str, role: ContributorRole) -> Session {
        self.owners
            .add(email, role, Some(PASSWORD), now())
            .await
            .unwrap();
        let body = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("email", email)
            .append_pair("password", PASSWORD)
            .finish();
        let answer = self.send(form_post("/config/sign-in", &body, None)).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text());
        let cookie = cookie_value(set_cookie(&answer, "owner").expect("a session cookie"));
        let context = self.send(get("/api/owner/context", Some(&cookie))).await;
        let json: serde_json::Value = serde_json::from_slice(&context.body).unwrap();
        Session {
            cookie,
            csrf: json["csrfToken"].as_str().unwrap().to_owned(),
        }
    }

    async fn page(&self, path: &str, session: &Session) -> Answer {
        self.send(get(path, Some(&session.cookie))).await
    }

    /// Posts a review action with the session's token (or `csrf` in its place).
    async fn act(
        &self,
        action: &str,
        session: &Session,
        csrf: &str,
        extra: &[(&str, &str)],
    ) -> Answer {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        body.append_pair("csrf", csrf)
            .append_pair("id", "rev-ada")
            .append_pair("back", "/config/reviews?q=ada");
        for (name, value) in extra {
            body.append_pair(name, value);
        }
        self.send(form_post(
            &format!("/config/reviews/{action}"),
            &body.finish(),
            Some(&session.cookie),
        ))
        .await
    }
}

fn get(path: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(session) = session {
        request = request.header("cookie", format!("owner={session}"));
    }
    request.body(Body::empty()).unwrap()
}

fn form_post(path: &str, body: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::post(path)
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("user-agent", "Test Browser");
    if let Some(session) = session {
        request = request.header("cookie", format!("owner={session}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

const TABLE_PAGES: [&str; 10] = [
    "/config/submissions",
    "/config/submissions.csv",
    "/config/orders",
    "/config/orders.csv",
    "/config/subscribers",
    "/config/subscribers.csv",
    "/config/consent-receipts",
    "/config/consent-receipts.csv",
    "/config/reviews",
    "/config/reviews.csv",
];

#[tokio::test]
async fn every_role_of_the_owner_area_reads_the_tables_and_others_may_not() {
    let harness = harness().await;
    for (n, role) in [
        ContributorRole::Admin,
        ContributorRole::Viewer,
        ContributorRole::Reporting,
        ContributorRole::StoreManager,
        ContributorRole::Editor,
        ContributorRole::Moderator,
        ContributorRole::Billing,
    ]
    .into_iter()
    .enumerate()
    {
        let session = harness
            .signed_in_as(&format!("reader{n}@example.com"), role)
            .await;
        for path in TABLE_PAGES {
            let answer = harness.page(path, &session).await;
            assert_eq!(answer.status, StatusCode::OK, "{role} {path}");
            assert_eq!(answer.header("cache-control"), "no-store", "{path}");
        }
    }
    let commenter = harness
        .signed_in_as("commenter@example.com", ContributorRole::Commenter)
        .await;
    for path in TABLE_PAGES {
        let answer = harness.page(path, &commenter).await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}");
        assert!(!answer.text().contains("Lovelace"), "{path}");
    }
    for path in TABLE_PAGES {
        let answer = harness.send(get(path, None)).await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{path}");
        assert_eq!(answer.header("location"), "/config/");
    }
}

#[tokio::test]
async fn submissions_are_paged_newest_first_and_searched() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("viewer@example.com", ContributorRole::Viewer)
        .await;
    let first = harness.page("/config/submissions", &session).await.text();
    assert!(
        first.contains("31 submissions."),
        "30 messages and a sign-up: {first}"
    );
    assert!(first.contains("Page 1 of 2"), "{first}");
    assert!(first.contains("message 30"), "{first}");
    assert!(!first.contains("message 1<"), "{first}");
    assert!(first.contains("<a rel=\"next\" href=\"/config/submissions?page=2\">"));
    assert!(!first.contains("rel=\"prev\""));
    let second = harness
        .page("/config/submissions?page=2", &session)
        .await
        .text();
    assert_eq!(second.matches("<tr><td>").count(), 6, "{second}");
    assert!(second.contains("message 1<"), "{second}");
    assert!(second.contains("<a rel=\"prev\" href=\"/config/submissions\">"));

    let found = harness
        .page("/config/submissions?q=lovelace", &session)
        .await
        .text();
    assert!(
        found.contains("1 submission matches “lovelace”."),
        "{found}"
    );
    assert!(found.contains("Order for Ada Lovelace"));
    assert!(found.contains("value=\"lovelace\""));
    assert!(found.contains("href=\"/config/submissions.csv?q=lovelace\""));

    for bad in [
        "/config/submissions?page=0",
        "/config/submissions?page=x",
        &format!("/config/submissions?q={}", "a".repeat(101)),
    ] {
        let answer = harness.page(bad, &session).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn the_csv_export_is_utf8_with_a_header_quoted_cells_and_defused_formulas() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("reporting@example.com", ContributorRole::Reporting)
        .await;
    let answer = harness.page("/config/submissions.csv", &session).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.header("content-type"), "text/csv; charset=utf-8");
    assert_eq!(
        answer.header("content-disposition"),
        "attachment; filename=\"submissions.csv\""
    );
    let csv = answer.text();
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(lines[0], "id,form_id,created_at,spam,message,raw");
    assert_eq!(lines.len(), 33, "a header, 31 rows and the last line's end");
    assert!(
        csv.contains("\"'=HYPERLINK(\"\"http://evil.example\"\"), then more\""),
        "{csv}"
    );

    let searched = harness
        .page("/config/submissions.csv?q=ada", &session)
        .await
        .text();
    assert_eq!(searched.split("\r\n").count(), 3, "{searched}");

    let reviews = harness.page("/config/reviews.csv", &session).await.text();
    assert!(
        reviews.starts_with(
            "id,created,order_id,sku,product,stars,title,body,author,hidden,reply\r\n"
        ),
        "{reviews}"
    );
    assert!(reviews.contains("rev-grace,2000,order-2,TOTE-1,Tote,4,Review by Grace"));
}

#[tokio::test]
async fn only_roles_with_the_content_manager_code_moderate_reviews() {
    let harness = harness().await;
    let actions: [(&str, &[(&str, &str)]); 3] = [
        ("hide", &[]),
        ("approve", &[]),
        ("reply", &[("reply", "Thanks!")]),
    ];
    for (n, role) in [
        ContributorRole::Viewer,
        ContributorRole::Reporting,
        ContributorRole::StoreManager,
        ContributorRole::Billing,
    ]
    .into_iter()
    .enumerate()
    {
        let session = harness
            .signed_in_as(&format!("looker{n}@example.com"), role)
            .await;
        let page = harness.page("/config/reviews", &session).await.text();
        assert!(
            !page.contains("/config/reviews/hide"),
            "{role} sees no buttons"
        );
        for (action, extra) in actions {
            let answer = harness.act(action, &session, &session.csrf, extra).await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{role} {action}");
        }
    }
    for (n, role) in [
        ContributorRole::Admin,
        ContributorRole::Editor,
        ContributorRole::Moderator,
    ]
    .into_iter()
    .enumerate()
    {
        let session = harness
            .signed_in_as(&format!("moderator{n}@example.com"), role)
            .await;
        for (action, extra) in actions {
            let forged = harness.act(action, &session, "not-the-token", extra).await;
            assert_eq!(
                forged.status,
                StatusCode::FORBIDDEN,
                "{role} {action} without CSRF"
            );
            let answer = harness.act(action, &session, &session.csrf, extra).await;
            assert_eq!(answer.status, StatusCode::SEE_OTHER, "{role} {action}");
            assert_eq!(answer.header("location"), "/config/reviews?q=ada");
        }
    }
}

#[tokio::test]
async fn a_hidden_review_leaves_the_product_page_and_an_approved_one_returns_with_its_reply() {
    let harness = harness().await;
    let editor = harness
        .signed_in_as("editor@example.com", ContributorRole::Editor)
        .await;
    let product = |harness: &Harness| {
        let router = harness.router.clone();
        async move { send(&router, get("/journal/tote", None)).await.text() }
    };
    let before = product(&harness).await;
    assert!(before.contains("Review by Ada"), "{before}");
    assert!(before.contains("(2 reviews)"));

    assert_eq!(
        harness.act("hide", &editor, &editor.csrf, &[]).await.status,
        StatusCode::SEE_OTHER
    );
    let hidden = product(&harness).await;
    assert!(!hidden.contains("Review by Ada"), "{hidden}");
    assert!(hidden.contains("(1 review)"));
    let table = harness.page("/config/reviews", &editor).await.text();
    assert!(
        table.contains("Hidden <form method=\"post\" action=\"/config/reviews/approve\">"),
        "{table}"
    );

    let reply = [("reply", "Thank you, <Ada>!")];
    assert_eq!(
        harness
            .act("reply", &editor, &editor.csrf, &reply)
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(
        harness
            .act("approve", &editor, &editor.csrf, &[])
            .await
            .status,
        StatusCode::SEE_OTHER
    );
    let shown = product(&harness).await;
    assert!(shown.contains("Review by Ada"), "{shown}");
    assert!(shown.contains("(2 reviews)"));
    assert!(
        shown.contains("Thank you, &#60;Ada&#62;!"),
        "the reply is escaped: {shown}"
    );

    let too_long = [("reply", "x".repeat(Review::MAX_REPLY + 1))];
    let too_long: Vec<(&str, &str)> = too_long.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let answer = harness.act("reply", &editor, &editor.csrf, &too_long).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);

    let mut unknown = url::form_urlencoded::Serializer::new(String::new());
    unknown
        .append_pair("csrf", &editor.csrf)
        .append_pair("id", "nope");
    let answer = harness
        .send(form_post(
            "/config/reviews/hide",
            &unknown.finish(),
            Some(&editor.cookie),
        ))
        .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_action_goes_back_only_to_its_own_table() {
    let harness = harness().await;
    let admin = harness
        .signed_in_as("admin@example.com", ContributorRole::Admin)
        .await;
    for (back, expected) in [
        ("https://evil.example/", "/config/reviews"),
        ("/config/reviewsevil", "/config/reviews"),
        ("/config/reviews?page=2", "/config/reviews?page=2"),
    ] {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        body.append_pair("csrf", &admin.csrf)
            .append_pair("id", "rev-ada")
            .append_pair("back", back);
        let answer = harness
            .send(form_post(
                "/config/reviews/hide",
                &body.finish(),
                Some(&admin.cookie),
            ))
            .await;
        assert_eq!(answer.header("location"), expected, "{back}");
    }
}

impl Harness {
    async fn order_action(
        &self,
        action: &str,
        session: &Session,
        fields: &[(&str, &str)],
    ) -> Answer {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        body.append_pair("csrf", &session.csrf);
        for (name, value) in fields {
            body.append_pair(name, value);
        }
        self.send(form_post(
            &format!("/config/orders/{action}"),
            &body.finish(),
            Some(&session.cookie),
        ))
        .await
    }
}

#[tokio::test]
async fn only_roles_with_the_commerce_code_fulfil_and_refund_orders() {
    let harness = harness().await;
    let fulfil = [("id", "order-1"), ("tracking", "https://track.example/1")];
    let refund = [("id", "order-1")];
    for (n, role) in [
        ContributorRole::Viewer,
        ContributorRole::Reporting,
        ContributorRole::Editor,
        ContributorRole::Billing,
    ]
    .into_iter()
    .enumerate()
    {
        let session = harness
            .signed_in_as(&format!("orders{n}@example.com"), role)
            .await;
        let page = harness.page("/config/orders", &session).await.text();
        assert!(page.contains("order-1"), "{role} sees the orders");
        assert!(
            !page.contains("/config/orders/fulfil"),
            "{role} sees no buttons"
        );
        for (action, fields) in [("fulfil", &fulfil[..]), ("refund", &refund[..])] {
            let answer = harness.order_action(action, &session, fields).await;
            assert_eq!(answer.status, StatusCode::FORBIDDEN, "{role} {action}");
        }
    }
    assert!(harness.payments.part_refunds().is_empty());

    let manager = harness
        .signed_in_as("manager@example.com", ContributorRole::StoreManager)
        .await;
    let page = harness.page("/config/orders", &manager).await.text();
    assert!(page.contains("Refund order order-1"), "{page}");
    assert!(
        !page.contains("Refund order order-2"),
        "nothing was charged for order 2"
    );
    let forged = harness
        .send(form_post(
            "/config/orders/fulfil",
            "csrf=wrong&id=order-1",
            Some(&manager.cookie),
        ))
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);

    let done = harness.order_action("fulfil", &manager, &fulfil).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    assert_eq!(done.header("location"), "/config/orders");
    let page = harness.page("/config/orders", &manager).await.text();
    assert!(
        page.contains("<a href=\"https://track.example/1\" rel=\"noopener noreferrer\" target=\"_blank\">Tracking for order order-1</a>"),
        "{page}"
    );
    let bad = harness
        .order_action(
            "fulfil",
            &manager,
            &[("id", "order-2"), ("tracking", "javascript:alert(1)")],
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let unknown = harness
        .order_action(
            "fulfil",
            &manager,
            &[("id", "order-404"), ("tracking", "https://track.example/4")],
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    let refunded = harness.order_action("refund", &manager, &refund).await;
    assert_eq!(
        refunded.status,
        StatusCode::SEE_OTHER,
        "{}",
        refunded.text()
    );
    let whole = vec![(
        "test_ch_1".to_owned(),
        fixture_order("order-1").rest_due_cents(),
    )];
    assert_eq!(harness.payments.part_refunds(), whole);
    let page = harness.page("/config/orders", &manager).await.text();
    assert!(
        !page.contains("Mark order order-1 fulfilled"),
        "a sent order is not sent again: {page}"
    );
    let again = harness.order_action("refund", &manager, &refund).await;
    assert_eq!(
        again.status,
        StatusCode::CONFLICT,
        "a refunded order is not refunded twice"
    );
    let unpaid = harness
        .order_action("refund", &manager, &[("id", "order-2")])
        .await;
    assert_eq!(unpaid.status, StatusCode::CONFLICT);
    assert_eq!(harness.payments.part_refunds(), whole);

    let csv = harness.page("/config/orders.csv", &manager).await.text();
    assert!(csv.starts_with("id,created,email,items,currency,grand_total_cents,payment_status,fulfilled_at,tracking_url\r\n"), "{csv}");
    assert!(csv.contains("https://track.example/1"), "{csv}");
}

#[tokio::test]
async fn subscribers_and_consent_receipts_are_listed_and_exported() {
    let harness = harness().await;
    let viewer = harness
        .signed_in_as("viewer@example.com", ContributorRole::Viewer)
        .await;
    let subscribers = harness
        .page("/config/subscribers?q=READER", &viewer)
        .await
        .text();
    assert!(
        subscribers.contains("<td>reader@example.com</td><td>letter</td><td>Subscribed</td>"),
        "{subscribers}"
    );
    let csv = harness
        .page("/config/subscribers.csv", &viewer)
        .await
        .text();
    assert_eq!(
        csv,
        "submission_id,email,list,status\r\n31,reader@example.com,letter,Subscribed\r\n"
    );

    let receipts = harness
        .page("/config/consent-receipts?q=gpc", &viewer)
        .await
        .text();
    assert!(receipts.contains("<code>receipt-1</code>"), "{receipts}");
    let csv = harness
        .page("/config/consent-receipts.csv", &viewer)
        .await
        .text();
    assert_eq!(
        csv,
        "id,bannerVersion,choice,source,recordedAtMs\r\nreceipt-1,3,declined,gpc,5000\r\n"
    );
}
