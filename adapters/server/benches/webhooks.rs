//! Stripe webhook events processed per second by `vitrine serve` (the build cargo benches
//! with) on a SQLite data directory holding `--orders` paid orders. Each order gets a signed
//! `charge.refunded` event, delivered twice as Stripe does when an acknowledgement is slow
//! (the second a duplicate the server must recognise), and every tenth order an event of a
//! kind the shop does not act on; `--concurrency` deliveries are in flight at once. Every
//! delivery must be acknowledged and every order must end refunded once. Prints a Markdown
//! table for BENCHMARKS.md.
//!
//! Options: `--orders N` (default 2000), `--concurrency A,B,...` (default 1,8,32).

#[path = "support/args.rs"]
mod args;
#[allow(dead_code)]
#[path = "../tests/billing/seed.rs"]
mod seed;
#[allow(dead_code)]
#[path = "../tests/forms_at_scale/server.rs"]
mod server;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use server::Server;
use vitrine_core::cart::{Purchasable, Stock};
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::PaymentStatus;
use vitrine_core::enums::ProductType;
use vitrine_services::StripeWebhookSecret;

const SECRET: &str = "whsec_webhookbenchmark";
const PATH: &str = "/api/commerce/stripe/webhook";

fn unix_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// `count` orders of a download (nothing to ship) paid by card, each with its own PaymentIntent `pi_bench_{n}`.
async fn seed(data_dir: &Path, count: usize) {
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data_dir))
        .await
        .unwrap();
    database.migrate().await.unwrap();
    let commerce = database.commerce_store();
    let placed = seed::now();
    let item = Purchasable::new(
        "notebook",
        "Glaze notebook",
        ProductType::Digital,
        Sku::parse("NOTEBOOK").unwrap(),
        1_200,
        Stock::Unlimited,
    );
    for n in 0..count {
        seed::place_paid_order(&*commerce, &item, n, placed, format!("pi_bench_{n}")).await;
    }
    database.close().await;
}

/// The bodies Stripe would send for `count` orders, in delivery order: every event once, then
/// the refunds again.
fn deliveries(count: usize) -> Vec<String> {
    let event = |id: String, kind: &str, object: serde_json::Value| {
        serde_json::json!({ "id": id, "object": "event", "type": kind, "data": { "object": object } })
            .to_string()
    };
    let refunds: Vec<String> = (0..count)
        .map(|n| {
            event(
                format!("evt_refund_{n}"),
                "charge.refunded",
                serde_json::json!({
                    "id": format!("ch_bench_{n}"),
                    "object": "charge",
                    "payment_intent": format!("pi_bench_{n}"),
                    "refunded": true,
                }),
            )
        })
        .collect();
    let ignored = (0..count).step_by(10).map(|n| {
        event(
            format!("evt_customer_{n}"),
            "customer.created",
            serde_json::json!({ "id": format!("cus_bench_{n}"), "object": "customer" }),
        )
    });
    refunds
        .iter()
        .cloned()
        .chain(ignored)
        .chain(refunds.iter().cloned())
        .collect()
}

/// Sends every delivery through `concurrency` keep-alive connections; panics on any answer
/// but 200.
async fn deliver_all(address: &str, bodies: Vec<String>, concurrency: usize) {
    let secret = StripeWebhookSecret::parse(SECRET).unwrap();
    let bodies = Arc::new(bodies);
    let next = Arc::new(AtomicUsize::new(0));
    let url = format!("http://{address}{PATH}");
    let senders: Vec<_> = (0..concurrency)
        .map(|_| {
            let (bodies, next, url, secret) =
                (bodies.clone(), next.clone(), url.clone(), secret.clone());
            tokio::spawn(async move {
                let client = reqwest::Client::builder().build().unwrap();
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(body) = bodies.get(at) else { break };
                    let signature = secret.signature_header(unix_seconds(), body.as_bytes());
                    let answer = client
                        .post(&url)
                        .header("content-type", "application/json; charset=utf-8")
                        .header("stripe-signature", signature)
                        .body(body.clone())
                        .send()
                        .await
                        .expect("the server answers");
                    let status = answer.status();
                    assert_eq!(status, 200, "{}", answer.text().await.unwrap_or_default());
                }
            })
        })
        .collect();
    for sender in senders {
        sender.await.unwrap();
    }
}

/// How many of the `count` orders ended refunded.
async fn refunded_orders(data_dir: &Path, count: usize) -> usize {
    let database = vitrine_sql::connect(&vitrine_sql::sqlite_url_for_data_dir(data_dir))
        .await
        .unwrap();
    let commerce = database.commerce_store();
    let mut refunded = 0;
    for n in 0..count {
        let order = commerce
            .order(&format!("order-{n:04}"))
            .await
            .unwrap()
            .unwrap();
        if order.payment_status == PaymentStatus::Refunded {
            refunded += 1;
        }
    }
    database.close().await;
    refunded
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // reqwest is built without a TLS provider of its own; plain HTTP needs none, but the
    // client asks for one at construction.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let orders: usize = args::option("--orders").map_or(2_000, |n| n.parse().expect("a count"));
    let levels = args::concurrency_levels("1,8,32");
    println!("| concurrency | deliveries | of them new events | seconds | deliveries per second |");
    println!("|---|---|---|---|---|");
    for concurrency in levels {
        let data_dir = tempfile::tempdir().expect("a temporary directory");
        seed(data_dir.path(), orders).await;
        let server = Server::start(data_dir.path(), &["--stripe-webhook-secret", SECRET]);
        let bodies = deliveries(orders);
        let (total, new) = (bodies.len(), orders + orders.div_ceil(10));
        let started = Instant::now();
        deliver_all(&server.address, bodies, concurrency).await;
        let seconds = started.elapsed().as_secs_f64();
        drop(server);
        let refunded = refunded_orders(data_dir.path(), orders).await;
        assert_eq!(refunded, orders, "every order ends refunded");
        println!(
            "| {concurrency} | {total} | {new} | {seconds:.2} | {:.0} |",
            total as f64 / seconds
        );
    }
}
