//! Checkout with Stripe configured, end to end: the real `vitrine serve` process with the demo
//! shop, its Stripe gateway pointed at the fake of Stripe's API from `vitrine-services`, and
//! a shopper's requests over HTTP, without JavaScript (the forms post).

#[allow(dead_code)]
#[path = "forms_at_scale/server.rs"]
mod server;

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE, LOCATION, SET_COOKIE};
use vitrine_core::checkout::{IdempotencyKey, Order};
use vitrine_services::VERIFICATION_NEEDED_MESSAGE;
use vitrine_services::stripe_fake::{FAKE_SECRET_KEY, FakeStripe, cards};

use server::Server;

/// The demo's large sea-glass mug: 32.00 EUR, 8 in stock.
const MUG_PAGE: &str = "/shop/sea-glass-mug";
const MUG_SKU: &str = "TLZ-MUG-L-SEA";

/// The checkout form of a shopper in Lisbon, without the card and key.
const DETAILS: &[(&str, &str)] = &[
    ("email", "shopper@example.com"),
    ("name", "Ada Shopper"),
    ("addressLine1", "Rua das Flores 12"),
    ("city", "Lisboa"),
    ("postalCode", "1200-195"),
    ("country", "PT"),
    ("shippingOption", "standard"),
    ("cardExpiry", "12/40"),
    ("cardCvc", "123"),
];

/// A shopper without JavaScript: no redirects followed, the cart cookie sent by hand.
struct Shopper {
    client: reqwest::Client,
    site: String,
    cart: String,
}

impl Shopper {
    /// Puts one mug in a new cart and enters checkout; the checkout form's key.
    async fn at_checkout(address: &str) -> (Self, String) {
        // reqwest is built with rustls and no provider of its own (vitrine-services picks
        // ring); the test never speaks TLS but the client wants one.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let site = format!("http://{address}");
        // A browser's form posts name the site as their origin; the server refuses others.
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(reqwest::header::ORIGIN, site.parse().unwrap());
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .default_headers(headers)
            .build()
            .unwrap();
        let product = client
            .get(format!("{site}{MUG_PAGE}"))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let item_id = value_of(&product, "itemId");
        let added = client
            .post(format!("{site}/cart"))
            .header(CONTENT_TYPE, FORM)
            .body(encode(&[
                ("itemId", &item_id),
                ("sku", MUG_SKU),
                ("quantity", "1"),
            ]))
            .send()
            .await
            .unwrap();
        assert_eq!(added.status(), StatusCode::SEE_OTHER);
        let cart = added
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .find_map(|cookie| cookie.strip_prefix("vitrine_cart="))
            .and_then(|rest| rest.split(';').next())
            .expect("a cart cookie")
            .to_owned();
        let shopper = Self { client, site, cart };
        let entry = shopper
            .client
            .post(format!("{}/commerce/goto-checkout", shopper.site))
            .header(COOKIE, format!("vitrine_cart={}", shopper.cart))
            .send()
            .await
            .unwrap();
        assert_eq!(entry.headers()[LOCATION], "/checkout");
        let page = shopper.get("/checkout").await.text().await.unwrap();
        (shopper, value_of(&page, "idempotencyKey"))
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.site))
            .header(COOKIE, format!("vitrine_cart={}", self.cart))
            .send()
            .await
            .unwrap()
    }

    async fn pay(&self, card: &str, key: &str) -> reqwest::Response {
        let mut form = DETAILS.to_vec();
        form.extend([("cardNumber", card), ("idempotencyKey", key)]);
        self.client
            .post(format!("{}/checkout", self.site))
            .header(COOKIE, format!("vitrine_cart={}", self.cart))
            .header(CONTENT_TYPE, FORM)
            .body(encode(&form))
            .send()
            .await
            .unwrap()
    }
}

const FORM: &str = "application/x-www-form-urlencoded";

fn encode(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The value of the form field `name` in `html`.
fn value_of(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("a field {name} in {html}"))
        + marker.len();
    html[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned()
}

async fn serve_with_stripe(fake: &FakeStripe, data_dir: &std::path::Path) -> Server {
    let base = fake.base().to_string();
    let data_dir = data_dir.to_owned();
    // Starting reads the child's output synchronously; the fake keeps serving meanwhile on
    // the runtime's other thread.
    tokio::task::spawn_blocking(move || {
        Server::start(
            &data_dir,
            &[
                "--stripe-secret-key",
                FAKE_SECRET_KEY,
                "--stripe-api-base",
                &base,
            ],
        )
    })
    .await
    .unwrap()
}

/// The order placed under `key`, read from the server's database.
async fn placed_order(data_dir: &std::path::Path, key: &str) -> Option<Order> {
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data_dir))
        .await
        .unwrap();
    let placed = database
        .commerce_store()
        .order_by_key(&IdempotencyKey::parse(key).unwrap())
        .await
        .unwrap();
    database.close().await;
    placed
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkout_paid_through_stripe_is_confirmed_and_charged_once_however_often_it_is_sent() {
    let fake = FakeStripe::start().await;
    let work = tempfile::tempdir().unwrap();
    let server = serve_with_stripe(&fake, work.path()).await;
    let (shopper, key) = Shopper::at_checkout(&server.address).await;

    // A double click: both posts carry the same key and race to Stripe, which takes a
    // second to answer, so the second one arrives while the first is still running.
    fake.slow_down(std::time::Duration::from_secs(1));
    let (first, second) = tokio::join!(
        shopper.pay(cards::SUCCEEDS, &key),
        shopper.pay(cards::SUCCEEDS, &key)
    );
    // And the page sent again later, from the back button.
    let third = shopper.pay(cards::SUCCEEDS, &key).await;
    let confirmed = first.headers()[LOCATION].to_str().unwrap().to_owned();
    for answer in [&first, &second, &third] {
        assert_eq!(answer.status(), StatusCode::SEE_OTHER, "{}", server.log());
        assert_eq!(answer.headers()[LOCATION], confirmed.as_str());
    }
    assert!(confirmed.ends_with("/confirmed"), "{confirmed}");
    let page = shopper.get(&confirmed).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("Order confirmed"), "{html}");
    assert!(html.contains("\"pageType\":202"), "{html}");

    let intents = fake.payment_intents();
    assert_eq!(intents.len(), 1, "one PaymentIntent: {intents:?}");
    assert!(fake.requests() >= 2, "both submits reached Stripe");
    let intent = &intents[0];
    assert_eq!(intent.status, "succeeded");
    assert_eq!(intent.idempotency_key.as_deref(), Some(key.as_str()));
    assert_eq!(intent.receipt_email, "shopper@example.com");
    // Stripe charged the order's total: 32.00 for the mug and 5.00 for shipping, in cents.
    let order = placed_order(work.path(), &key).await.expect("the order");
    assert_eq!(order.payment_id, intent.id);
    assert_eq!(intent.amount, 3700);
    assert_eq!(intent.amount, order.grand_total_cents);
    assert_eq!(intent.currency, order.currency.code().to_ascii_lowercase());
    assert!(
        !server.log().contains(cards::SUCCEEDS) && !server.log().contains(FAKE_SECRET_KEY),
        "no card number or key in the log"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_card_stripe_declines_shows_stripes_message_and_places_no_order() {
    let fake = FakeStripe::start().await;
    let work = tempfile::tempdir().unwrap();
    let server = serve_with_stripe(&fake, work.path()).await;

    for (card, message) in [
        (cards::DECLINED, "Your card was declined."),
        (cards::AUTHENTICATION_REQUIRED, VERIFICATION_NEEDED_MESSAGE),
    ] {
        let (shopper, key) = Shopper::at_checkout(&server.address).await;
        let answer = shopper.pay(card, &key).await;
        assert_eq!(answer.status(), StatusCode::PAYMENT_REQUIRED);
        let html = answer.text().await.unwrap();
        assert!(html.contains(message), "{message} in {html}");
        // The shopper is still at checkout with the cart, and may try another card.
        assert!(html.contains("name=\"cardNumber\""), "{html}");
        assert!(
            placed_order(work.path(), &key).await.is_none(),
            "no order for {card}"
        );
        let again = shopper.get("/checkout").await;
        assert_eq!(again.status(), StatusCode::OK);
        assert!(again.text().await.unwrap().contains("Sea Glass Mug"));
    }
    let statuses: Vec<String> = fake
        .payment_intents()
        .into_iter()
        .map(|intent| intent.status)
        .collect();
    assert_eq!(statuses, ["requires_payment_method", "canceled"]);
}

#[test]
fn a_key_that_is_not_a_secret_key_stops_the_server_at_start() {
    let work = tempfile::tempdir().unwrap();
    let output = server::vitrine()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(work.path())
        .env("VITRINE_STRIPE_SECRET_KEY", "pk_live_publishable123")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("VITRINE_STRIPE_SECRET_KEY") && stderr.contains("sk_"),
        "{stderr}"
    );
    assert!(!stderr.contains("publishable123"), "{stderr}");
}
