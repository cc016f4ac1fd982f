//! `vitrine-stripe-fake PORT`: the local fake of Stripe's API (`stripe_fake`) as a process of
//! its own on `127.0.0.1:PORT`, for the browser tests, which run a real `vitrine serve`
//! pointed at it (`--stripe-api-base`, `--stripe-js-url`). It serves its stand-in of Stripe.js
//! at `/v3/` and its bank's verification pages at `/bank/{id}`; it runs until stopped.

use vitrine_services::stripe_fake::FakeStripe;

#[tokio::main]
async fn main() {
    let port: u16 = match std::env::args().nth(1).map(|text| text.parse()) {
        Some(Ok(port)) => port,
        _ => {
            eprintln!("usage: vitrine-stripe-fake PORT");
            std::process::exit(2);
        }
    };
    let fake = FakeStripe::start_on(port).await;
    println!("the Stripe fake listens on {}", fake.base());
    if let Err(error) = tokio::signal::ctrl_c().await {
        eprintln!("waiting for a stop signal failed: {error}");
    }
}
