//! A mixed visitor workload against a running `vitrine serve`: page views, analytics hits,
//! adds to cart, whole checkouts with the test gateway, and form submissions, sent by a
//! number of concurrent visitors for a while. Every answer is checked, and each kind's
//! latencies are kept for percentiles. Shared by the load test (briefly, in CI) and the
//! load benchmark (for minutes, with the figures in BENCHMARKS.md).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, COOKIE, LOCATION, ORIGIN, SET_COOKIE};

/// What a visitor does, each with its share of the workload in percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    PageView,
    AnalyticsHit,
    AddToCart,
    Checkout,
    FormSubmission,
}

impl Kind {
    const WEIGHTS: [(Kind, u32); 5] = [
        (Kind::PageView, 60),
        (Kind::AnalyticsHit, 20),
        (Kind::AddToCart, 10),
        (Kind::FormSubmission, 7),
        (Kind::Checkout, 3),
    ];

    /// The kind for a number drawn in 0..100.
    fn for_draw(draw: u32) -> Self {
        let mut left = draw;
        for (kind, weight) in Self::WEIGHTS {
            if left < weight {
                return kind;
            }
            left -= weight;
        }
        Kind::PageView
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::PageView => "page view",
            Kind::AnalyticsHit => "analytics hit",
            Kind::AddToCart => "add to cart",
            Kind::Checkout => "checkout (4 requests)",
            Kind::FormSubmission => "form submission (2 requests)",
        }
    }
}

/// The demo pages visitors read.
const PAGES: &[&str] = &["/", "/shop", "/shop/sea-glass-mug", "/about", "/journal"];
/// The demo's digital glaze notebook: unlimited stock, so checkouts never run out.
const NOTEBOOK_PAGE: &str = "/shop/glaze-notebook";
/// The demo's large sea-glass mug, 8 in stock: adding it to carts holds nothing.
const MUG_PAGE: &str = "/shop/sea-glass-mug";
const MUG_SKU: &str = "TLZ-MUG-L-SEA";
const NOTEBOOK_SKU: &str = "TLZ-BOOK-PDF";
/// Any crumb works as long as cookie and parameter agree (a double submit).
const CRUMB: &str = "bG9hZC10ZXN0LWNydW1iLWxvYWQtdGVzdC1jcnVtYg";
const FORM: &str = "application/x-www-form-urlencoded";

/// What a run measured.
#[derive(Debug, Default)]
pub struct Report {
    /// Latencies per kind, in microseconds.
    pub latencies: BTreeMap<Kind, Vec<u32>>,
    /// Failures per kind, with the first few messages.
    pub errors: BTreeMap<Kind, (u64, Vec<String>)>,
    pub elapsed: Duration,
}

impl Report {
    pub fn error_count(&self) -> u64 {
        self.errors.values().map(|(count, _)| count).sum()
    }

    pub fn count(&self, kind: Kind) -> usize {
        self.latencies.get(&kind).map_or(0, Vec::len)
    }

    /// A Markdown table: per kind, the count, the rate, p50 and p99 in milliseconds, errors.
    pub fn table(&mut self) -> String {
        let mut out = String::from(
            "| kind | done | per second | p50 ms | p99 ms | errors |\n|---|---:|---:|---:|---:|---:|\n",
        );
        let seconds = self.elapsed.as_secs_f64().max(0.001);
        for (kind, samples) in &mut self.latencies {
            samples.sort_unstable();
            let errors = self.errors.get(kind).map_or(0, |(count, _)| *count);
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {:.2} | {:.2} | {} |",
                kind.name(),
                samples.len(),
                samples.len() as f64 / seconds,
                percentile(samples, 0.50),
                percentile(samples, 0.99),
                errors
            );
        }
        out
    }

    pub fn error_samples(&self) -> String {
        let mut out = String::new();
        for (kind, (count, messages)) in &self.errors {
            let _ = writeln!(out, "{}: {count} errors, e.g. {messages:?}", kind.name());
        }
        out
    }
}

/// The `share` quantile of sorted microseconds, in milliseconds.
fn percentile(sorted: &[u32], share: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 * share).ceil() as usize).clamp(1, sorted.len()) - 1;
    f64::from(sorted[index]) / 1000.0
}

/// Runs `visitors` concurrent visitors against `address` for `duration`, each starting its
/// next operation as soon as the last is answered.
pub async fn run(address: &str, visitors: usize, duration: Duration) -> Report {
    run_paced(address, visitors, duration, None).await
}

/// Like [`run`], but with a `rate` in operations per second (all visitors together), each
/// visitor starts an operation at steady intervals instead; one that is answered late starts
/// the next at once and skips the intervals it missed, so a slow server sees no burst and the
/// report shows the rate it really kept.
pub async fn run_paced(
    address: &str,
    visitors: usize,
    duration: Duration,
    rate: Option<f64>,
) -> Report {
    let pace = rate.map(|rate| Duration::from_secs_f64(visitors as f64 / rate));
    // reqwest is built with rustls and no provider of its own; the load never speaks TLS but
    // the client wants one.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let site = format!("http://{address}");
    let products = Arc::new(Products::read(&site).await);
    let report = Arc::new(Mutex::new(Report::default()));
    let started = Instant::now();
    let deadline = started + duration;
    let mut tasks = Vec::new();
    for visitor in 0..visitors {
        let site = site.clone();
        let report = report.clone();
        let products = products.clone();
        tasks.push(tokio::spawn(async move {
            // Every request names the site as its origin, as a browser's form posts on the
            // site's own pages do; the server refuses state-changing posts from elsewhere.
            let mut headers = reqwest::header::HeaderMap::new();
            headers.insert(ORIGIN, site.parse().unwrap());
            let client = reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .default_headers(headers)
                .build()
                .unwrap();
            // A small generator of our own: the draws only need to spread the kinds.
            let mut state = 0x9e37_79b9_7f4a_7c15_u64 ^ (visitor as u64 + 1);
            let mut draw = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let mut ticks = pace.map(|pace| {
                let mut ticks = tokio::time::interval(pace);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
                ticks
            });
            let mut round = 0u64;
            while Instant::now() < deadline {
                if let Some(ticks) = &mut ticks {
                    ticks.tick().await;
                    if Instant::now() >= deadline {
                        break;
                    }
                }
                round += 1;
                let kind = Kind::for_draw((draw() % 100) as u32);
                let begun = Instant::now();
                let outcome = act(&client, &site, &products, kind, draw(), visitor, round).await;
                let micros = u32::try_from(begun.elapsed().as_micros()).unwrap_or(u32::MAX);
                let mut report = report.lock().unwrap();
                match outcome {
                    Ok(()) => report.latencies.entry(kind).or_default().push(micros),
                    Err(message) => {
                        let (count, messages) = report.errors.entry(kind).or_default();
                        *count += 1;
                        if messages.len() < 3 {
                            messages.push(message);
                        }
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let mut report = Arc::try_unwrap(report).unwrap().into_inner().unwrap();
    report.elapsed = started.elapsed();
    report
}

/// The item ids of the two products the workload buys, read from their pages as a
/// browser's form would carry them.
struct Products {
    mug: String,
    notebook: String,
}

impl Products {
    async fn read(site: &str) -> Self {
        let item_id = |page: &'static str| async move {
            let html = reqwest::get(format!("{site}{page}"))
                .await
                .and_then(reqwest::Response::error_for_status)
                .unwrap_or_else(|error| panic!("{page}: {error}"))
                .text()
                .await
                .unwrap();
            value_of(&html, "itemId").unwrap_or_else(|error| panic!("{page}: {error}"))
        };
        Self {
            mug: item_id(MUG_PAGE).await,
            notebook: item_id(NOTEBOOK_PAGE).await,
        }
    }
}

async fn act(
    client: &reqwest::Client,
    site: &str,
    products: &Products,
    kind: Kind,
    draw: u64,
    visitor: usize,
    round: u64,
) -> Result<(), String> {
    match kind {
        Kind::PageView => {
            let path = PAGES[(draw % PAGES.len() as u64) as usize];
            let answer = send(client.get(format!("{site}{path}"))).await?;
            expect(answer, StatusCode::OK).await.map(drop)
        }
        Kind::AnalyticsHit => {
            let data = format!(
                r#"{{"websiteId":"terraluz","pagePath":"{}","contentSource":"c"}}"#,
                PAGES[(draw % PAGES.len() as u64) as usize]
            );
            let body = encode(&[("event", "1"), ("data", &data)]);
            let answer = send(
                client
                    .post(format!("{site}/api/census/RecordHit?crumb={CRUMB}"))
                    .header(COOKIE, format!("crumb={CRUMB}"))
                    .header(CONTENT_TYPE, FORM)
                    .body(body),
            )
            .await?;
            expect(answer, StatusCode::OK).await.map(drop)
        }
        Kind::AddToCart => add_to_cart(client, site, &products.mug, MUG_SKU)
            .await
            .map(drop),
        Kind::Checkout => checkout(client, site, &products.notebook).await,
        Kind::FormSubmission => submit_form(client, site, visitor, round).await,
    }
}

/// Adds one unit of `sku` (of the item `item_id`) to a new cart, as the product page's form
/// does without JavaScript; the new cart's cookie value.
async fn add_to_cart(
    client: &reqwest::Client,
    site: &str,
    item_id: &str,
    sku: &str,
) -> Result<String, String> {
    let answer = send(
        client
            .post(format!("{site}/cart"))
            .header(CONTENT_TYPE, FORM)
            .body(encode(&[
                ("itemId", item_id),
                ("sku", sku),
                ("quantity", "1"),
            ])),
    )
    .await?;
    let answer = expect(answer, StatusCode::SEE_OTHER).await?;
    answer
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find_map(|cookie| cookie.strip_prefix("vitrine_cart="))
        .and_then(|rest| rest.split(';').next())
        .map(str::to_owned)
        .ok_or_else(|| "no cart cookie after adding to the cart".to_owned())
}

/// A whole purchase of the digital notebook with the test card: add, enter checkout, read
/// the form, pay; the answer leads to the order.
async fn checkout(client: &reqwest::Client, site: &str, notebook: &str) -> Result<(), String> {
    let cart = add_to_cart(client, site, notebook, NOTEBOOK_SKU).await?;
    let cookie = format!("vitrine_cart={cart}");
    let entry = send(
        client
            .post(format!("{site}/commerce/goto-checkout"))
            .header(COOKIE, &cookie),
    )
    .await?;
    let entry = expect(entry, StatusCode::SEE_OTHER).await?;
    let location = entry.headers().get(LOCATION).and_then(|v| v.to_str().ok());
    if location != Some("/checkout") {
        return Err(format!("checkout entry led to {location:?}"));
    }
    let page = send(
        client
            .get(format!("{site}/checkout"))
            .header(COOKIE, &cookie),
    )
    .await?;
    let page = expect(page, StatusCode::OK).await?.text().await;
    let page = page.map_err(|error| error.to_string())?;
    let key = value_of(&page, "idempotencyKey")?;
    let paid = send(
        client
            .post(format!("{site}/checkout"))
            .header(COOKIE, &cookie)
            .header(CONTENT_TYPE, FORM)
            .body(encode(&[
                ("email", "load@example.com"),
                ("name", "Load Test"),
                ("cardNumber", "4242424242424242"),
                ("cardExpiry", "12/40"),
                ("cardCvc", "123"),
                ("idempotencyKey", &key),
            ])),
    )
    .await?;
    let paid = expect(paid, StatusCode::SEE_OTHER).await?;
    match paid.headers().get(LOCATION).and_then(|v| v.to_str().ok()) {
        Some(location) if location.contains("order") => Ok(()),
        other => Err(format!("paying led to {other:?}")),
    }
}

/// A key, then the demo contact form under it.
async fn submit_form(
    client: &reqwest::Client,
    site: &str,
    visitor: usize,
    round: u64,
) -> Result<(), String> {
    let api = |path: &str| {
        client
            .post(format!("{site}/api/form/{path}?crumb={CRUMB}"))
            .header(COOKIE, format!("crumb={CRUMB}"))
            .header(CONTENT_TYPE, FORM)
    };
    let answer = send(api("FormSubmissionKey").body("")).await?;
    let body = expect(answer, StatusCode::OK).await?.text().await;
    let body = body.map_err(|error| error.to_string())?;
    let key = body
        .split_once(r#""key":""#)
        .and_then(|(_, rest)| rest.split('"').next())
        .ok_or_else(|| format!("no key in {body}"))?
        .to_owned();
    let form = format!(
        r#"{{"name":["Load","Test"],"email":"load@example.com","subject":"Workshops","message":"visitor {visitor} round {round}"}}"#
    );
    let answer = send(api("SaveFormSubmission").body(encode(&[
        ("key", &key),
        ("formId", "contact"),
        ("collectionId", "contact"),
        ("objectName", ""),
        ("isOverlayForm", "false"),
        ("submitButtonText", "Send message"),
        ("form", &form),
    ])))
    .await?;
    expect(answer, StatusCode::OK).await.map(drop)
}

async fn send(request: reqwest::RequestBuilder) -> Result<reqwest::Response, String> {
    request.send().await.map_err(|error| error.to_string())
}

/// The answer when its status is `status`; otherwise what came instead.
async fn expect(
    answer: reqwest::Response,
    status: StatusCode,
) -> Result<reqwest::Response, String> {
    if answer.status() == status {
        return Ok(answer);
    }
    let got = answer.status();
    let body = answer.text().await.unwrap_or_default();
    let body: String = body.chars().take(200).collect();
    Err(format!("{got} instead of {status}: {body}"))
}

fn encode(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The value of the form field `name` in `html`.
fn value_of(html: &str, name: &str) -> Result<String, String> {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .ok_or_else(|| format!("no field {name} on the page"))?
        + marker.len();
    Ok(html[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned())
}

/// The resident memory of process `pid`, in KiB, from `/proc` (Linux).
pub fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    // The benchmark includes this file too, built without the test harness, where the test
    // below is left out and the import goes unused.
    #[allow(unused_imports)]
    use super::*;

    #[test]
    fn the_weights_cover_every_draw_and_add_up_to_a_hundred() {
        assert_eq!(Kind::WEIGHTS.iter().map(|(_, w)| w).sum::<u32>(), 100);
        assert_eq!(Kind::for_draw(0), Kind::PageView);
        assert_eq!(Kind::for_draw(99), Kind::Checkout);
        assert_eq!(percentile(&[1000, 2000, 3000, 4000], 0.5), 2.0);
        assert_eq!(percentile(&[1000, 2000, 3000, 4000], 0.99), 4.0);
    }
}
