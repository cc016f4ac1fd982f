//! Made-up but plausible traffic for trying the dashboard and measuring its queries:
//! `vitrine analytics generate` writes it into a database, the dashboard benchmark fills a
//! year with it, and the browser test a month. It is deterministic (a seed and a day give the
//! same rows every time) and goes through the same [`subject_of`], [`kept_data`] and
//! [`metric_value_of`] as real hits, so every figure is read exactly as a real one would be.

use serde_json::{Value, json};

use super::report::{kept_data, kinds, metric_value_of, subject_of};
use super::segments::{campaign_of, device_of};
use super::store::{PAGE_VIEW, StoredHit};

const DAY_MS: i64 = 86_400_000;

/// Pages, most visited first.
const PAGES: [&str; 8] = [
    "/",
    "/shop",
    "/about",
    "/contact",
    "/blog/spring-collection",
    "/shop/ceramic-mug",
    "/shop/linen-apron",
    "/faq",
];
const REFERRERS: [&str; 4] = [
    "https://search.example/?q=shop",
    "https://news.example/story",
    "https://social.example/post/1",
    "https://newsletter.example/issue",
];
const BUTTONS: [&str; 3] = ["Shop now", "Subscribe", "Read more"];
const ERRORS: [&str; 2] = [
    "TypeError: cart is undefined",
    "ReferenceError: gallery is not defined",
];
/// Tagged landing links, most common first.
const CAMPAIGNS: [&str; 3] = [
    "utm_source=newsletter&utm_medium=email&utm_campaign=spring",
    "utm_source=social&utm_medium=post",
    "utm_source=search&utm_medium=cpc&utm_campaign=mugs",
];
/// Viewport widths: a phone, a tablet, a laptop.
const VIEWPORTS: [u64; 3] = [390, 820, 1440];
/// The products of the shop's pages, by page.
const PRODUCTS: [(&str, &str); 2] = [
    ("/shop/ceramic-mug", "Ceramic mug"),
    ("/shop/linen-apron", "Linen apron"),
];
/// The published site version errors are reported on: the site was republished in the middle
/// of each month, so an error group shows on two versions.
fn site_version(day: i64) -> u64 {
    u64::try_from(day.div_euclid(15)).unwrap_or(0)
}

/// A small, fast pseudo-random sequence (SplitMix64): good enough to spread made-up traffic,
/// and needing no dependency or entropy source in the core.
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound`.
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }

    /// True about once in `times`.
    fn one_in(&mut self, times: u64) -> bool {
        self.below(times) == 0
    }

    /// An index weighted towards the start: the first page is visited most.
    fn skewed(&mut self, len: usize) -> usize {
        let len = len as u64;
        let first = self.below(len);
        usize::try_from(self.below(first + 1)).unwrap_or(0)
    }
}

fn row(kind: &str, visitor: &str, cookieless: bool, at: i64, data: &Value) -> StoredHit {
    StoredHit {
        kind: kind.to_owned(),
        visitor_key: Some(visitor.to_owned()),
        cookieless,
        page_path: data
            .get("pagePath")
            .and_then(Value::as_str)
            .map(str::to_owned),
        data: kept_data(kind, data).to_string(),
        recorded_at_ms: at,
        subject: subject_of(kind, data),
        metric_value: metric_value_of(kind, data),
        campaign: campaign_of(kind, data),
        device: device_of(kind, data),
    }
}

/// The rows of about `views` page views on `day` (weekends are quieter), with the clicks,
/// form renders and submissions, Web Vitals, script errors and orders such visits bring.
pub fn sample_day(day: i64, views: u32, seed: u64) -> Vec<StoredHit> {
    let mut random = Sequence(seed ^ (day as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    // The figures added later draw from a sequence of their own, so the earlier figures of a
    // seed and day stay what they were.
    let mut later = Sequence(!seed ^ (day as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // Day 0 (1970-01-01) was a Thursday, so days 2 and 3 of each week are the weekend.
    let weekend = matches!(day.rem_euclid(7), 2 | 3);
    let views = u64::from(views);
    let views = if weekend { views * 3 / 5 } else { views };
    let visitors = (views / 3).max(1);
    let mut rows = Vec::with_capacity(usize::try_from(views).unwrap_or(0) * 2);
    // Visitor keys are per day: the figures count distinct visitors within a day.
    let day_offset = (day as u64).wrapping_mul(1_000_000);
    for n in 0..views {
        let at = day * DAY_MS + i64::try_from(n * (DAY_MS as u64) / views).unwrap_or(0);
        let cookieless = random.one_in(8);
        let visitor = format!(
            "{}{:x}",
            if cookieless { "h" } else { "v" },
            random.below(visitors).wrapping_add(day_offset)
        );
        let page = PAGES[random.skewed(PAGES.len())];
        let referrer = if random.one_in(3) {
            REFERRERS[random.skewed(REFERRERS.len())]
        } else {
            ""
        };
        let tags = if later.one_in(10) {
            format!("?{}", CAMPAIGNS[later.skewed(CAMPAIGNS.len())])
        } else {
            String::new()
        };
        let view = json!({
            "pagePath": page,
            "url": format!("https://shop.example{page}{tags}"),
            "referrer": referrer,
            "viewportInnerWidth": VIEWPORTS[later.skewed(VIEWPORTS.len())],
        });
        rows.push(row(PAGE_VIEW, &visitor, cookieless, at, &view));
        let on_page = |mut data: Value| {
            data["pagePath"] = json!(page);
            data
        };
        if random.one_in(6) {
            let text = BUTTONS[random.skewed(BUTTONS.len())];
            let click = on_page(json!({ "buttonText": text }));
            rows.push(row(kinds::BUTTON_CLICK, &visitor, cookieless, at, &click));
            if text == "Subscribe" && later.one_in(2) {
                let signup = json!({ "formId": "newsletter" });
                rows.push(row(
                    kinds::NEWSLETTER_SIGNUP,
                    &visitor,
                    cookieless,
                    at,
                    &signup,
                ));
            }
        }
        if page == "/contact" {
            let form = on_page(json!({ "formId": "contact" }));
            rows.push(row(kinds::FORM_RENDER, &visitor, cookieless, at, &form));
            if random.one_in(4) {
                rows.push(row(kinds::FORM_SUBMIT, &visitor, cookieless, at, &form));
            }
        }
        if random.one_in(3) {
            let lcp = 900 + random.below(3800);
            let inp = 40 + random.below(400);
            let cls = random.below(300) as f64 / 1000.0;
            for (name, value) in [("LCP", lcp as f64), ("INP", inp as f64), ("CLS", cls)] {
                let record = on_page(json!({ "name": name, "value": value }));
                rows.push(row(kinds::PERFORMANCE, &visitor, cookieless, at, &record));
            }
        }
        if random.one_in(150) {
            let message = ERRORS[random.skewed(ERRORS.len())];
            let fingerprint = crate::analytics::error_fingerprint(message, None);
            let error = on_page(json!({
                "fingerprint": fingerprint,
                "siteVersion": site_version(day),
                "data": { "message": message },
            }));
            rows.push(row(kinds::JS_ERROR, &visitor, cookieless, at, &error));
        }
        if page.starts_with("/shop/") && random.one_in(5) {
            let total = 1200 + random.below(8800);
            let order = json!({ "orderId": format!("order-{day}-{n}"), "totalCents": total });
            let mut placed = row(kinds::ORDER, &visitor, cookieless, at, &order);
            placed.page_path = None;
            rows.push(placed);
            if let Some((_, product)) = PRODUCTS.iter().find(|(path, _)| *path == page) {
                let line = json!({ "orderId": order["orderId"], "product": product });
                let mut item = row(kinds::ORDER_ITEM, &visitor, cookieless, at, &line);
                item.page_path = None;
                rows.push(item);
            }
        }
        if later.one_in(2000) {
            let failure = json!({ "blockType": "tour-dates", "reason": "out of fuel" });
            let mut failed = row(kinds::PLUGIN_FAILURE, &visitor, cookieless, at, &failure);
            // A plugin failure tracks no one.
            failed.visitor_key = None;
            failed.cookieless = false;
            rows.push(failed);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_the_same_every_time_and_brings_every_kind_of_row() {
        let day = sample_day(20_000, 600, 7);
        assert_eq!(day, sample_day(20_000, 600, 7));
        assert_ne!(day, sample_day(20_000, 600, 8));
        let views = day.iter().filter(|row| row.kind == PAGE_VIEW).count();
        assert_eq!(views, 600);
        for kind in [
            kinds::BUTTON_CLICK,
            kinds::FORM_RENDER,
            kinds::PERFORMANCE,
            kinds::ORDER,
            kinds::ORDER_ITEM,
            kinds::NEWSLETTER_SIGNUP,
        ] {
            assert!(day.iter().any(|row| row.kind == kind), "{kind}");
        }
        assert!(
            day.iter()
                .all(|row| super::super::day_number(row.recorded_at_ms) == 20_000)
        );
        assert!(day.iter().any(|row| row.campaign.is_some()));
        assert!(
            day.iter()
                .any(|row| row.device.as_deref() == Some("mobile"))
        );
        assert!(
            day.iter()
                .filter(|row| row.kind == kinds::ORDER)
                .all(|row| row.metric_value.is_some_and(|cents| cents >= 1200.0))
        );
    }

    #[test]
    fn weekends_are_quieter() {
        // Day 2 is a Saturday.
        let saturday = sample_day(2, 100, 1);
        assert_eq!(
            saturday.iter().filter(|row| row.kind == PAGE_VIEW).count(),
            60
        );
    }
}
