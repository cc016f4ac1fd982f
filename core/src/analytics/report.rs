//! The owner's analytics report: views and visitors per day, top pages, referrers, button
//! clicks, form conversion, errors and Core Web Vitals at the 75th percentile, built from the
//! analytics store. Which column a census row is grouped by is decided here, once, when the row
//! is stored ([`subject_of`], [`metric_value_of`]).

use serde::Serialize;
use serde_json::Value;

use crate::ports::RepositoryError;

use super::range::DayRange;
use super::store::{AnalyticsStore, DailyTotal, DailyViews, PAGE_VIEW};

/// Row kinds the report reads, as the HTTP adapter records them.
pub mod kinds {
    pub const BUTTON_CLICK: &str = "button-click";
    pub const FORM_RENDER: &str = "form-render";
    /// A form submission the server accepted (recorded by the form calls).
    pub const FORM_SUBMIT: &str = "form-submit";
    pub const JS_ERROR: &str = "js-error";
    pub const PERFORMANCE: &str = "performance";
    /// A visitor was shown an experiment's variant (recorded by the page handler).
    pub const EXPERIMENT_EXPOSURE: &str = "experiment-exposure";
    /// An order was placed (recorded by the checkout), a conversion of experiments.
    pub const ORDER: &str = "order";
    /// A payment attempt refused because its visitor, cart or address failed to pay too
    /// often (the card-testing defence of the checkout and donations); grouped by which.
    pub const PAYMENT_REFUSED: &str = "payment-refused";
    /// One product line of a placed order (recorded by the checkout with the order), about
    /// the product's name: top products count the orders each product was in.
    pub const ORDER_ITEM: &str = "order-item";
    /// A newsletter sign-up the server accepted (recorded by the form calls).
    pub const NEWSLETTER_SIGNUP: &str = "newsletter-signup";
    /// A plugin block that failed to render, or was not rendered because its plugin rests
    /// after failing (recorded by the render pool every page and widget goes through), about
    /// the plugin's block type.
    pub const PLUGIN_FAILURE: &str = "plugin-failure";
    /// What counts as an experiment's conversion.
    pub const CONVERSIONS: [&str; 2] = [FORM_SUBMIT, ORDER];
}

/// The Core Web Vitals the report shows, by the names web-vitals gives them.
pub const WEB_VITALS: [&str; 3] = ["LCP", "INP", "CLS"];
/// How many rows each top list holds.
pub const TOP_LIMIT: u32 = 10;
/// Error messages are grouped by their first characters, so one long message is one group.
pub const ERROR_SUBJECT_CHARS: usize = 200;

/// What a count is keyed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReportKey {
    PagePath,
    Subject,
    /// A page view's campaign (`source / medium / campaign`).
    Campaign,
    /// A page view's device class.
    Device,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyCount {
    pub key: String,
    pub count: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Percentile {
    pub value: f64,
    pub samples: u64,
}

/// One form's renders against its accepted submissions.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormConversion {
    pub form_id: String,
    pub renders: u64,
    pub submissions: u64,
    /// Submissions per render; `None` when the form was never seen rendered (a visitor without
    /// JavaScript, or an overlay form before it was shown).
    pub rate: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebVital {
    pub name: String,
    pub p75: Option<f64>,
    pub samples: u64,
    /// Where the p75 falls against the metric's thresholds; `None` without samples.
    pub rating: Option<VitalRating>,
}

/// The Core Web Vitals thresholds' three bands (web.dev: LCP 2.5 s and 4 s, INP 200 ms and
/// 500 ms, CLS 0.1 and 0.25), the upper bound of each band included in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum VitalRating {
    Good,
    NeedsImprovement,
    Poor,
}

impl VitalRating {
    /// The rating of `value` of the vital `name`; `None` for a metric without thresholds.
    pub fn of(name: &str, value: f64) -> Option<Self> {
        let (good, poor) = match name {
            "LCP" => (2500.0, 4000.0),
            "INP" => (200.0, 500.0),
            "CLS" => (0.1, 0.25),
            _ => return None,
        };
        Some(if value <= good {
            Self::Good
        } else if value <= poor {
            Self::NeedsImprovement
        } else {
            Self::Poor
        })
    }

    pub const fn label(self) -> &'static str {
        match self {
            Self::Good => "good",
            Self::NeedsImprovement => "needs improvement",
            Self::Poor => "poor",
        }
    }
}

/// The Core Web Vitals of one page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageVitals {
    pub page_path: String,
    pub vitals: Vec<WebVital>,
}

/// Script errors of one group (the fingerprint of message and top stack frames) on one
/// published site version; reports stored before errors had fingerprints have neither.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorGroup {
    pub fingerprint: Option<String>,
    pub site_version: Option<u64>,
    pub message: String,
    pub count: u64,
}

/// Separates the parts of a script error's subject, a character no message carries.
const ERROR_KEY_SEPARATOR: char = '\u{1f}';

/// The subject a script error is grouped by: fingerprint, site version and message, so one
/// group on two site versions is two lines (a fix that did not work shows on the new version).
fn error_subject(fingerprint: Option<&str>, version: Option<u64>, message: &str) -> String {
    let message: String = message.chars().take(ERROR_SUBJECT_CHARS).collect();
    match fingerprint {
        Some(fingerprint) => {
            let version = version.map(|v| v.to_string()).unwrap_or_default();
            format!("{fingerprint}{ERROR_KEY_SEPARATOR}{version}{ERROR_KEY_SEPARATOR}{message}")
        }
        None => message,
    }
}

impl ErrorGroup {
    /// The group a stored subject and its count stand for.
    pub fn from_count(count: KeyCount) -> Self {
        let mut parts = count.key.splitn(3, ERROR_KEY_SEPARATOR);
        match (parts.next(), parts.next(), parts.next()) {
            (Some(fingerprint), Some(version), Some(message)) => Self {
                fingerprint: Some(fingerprint.to_owned()),
                site_version: version.parse().ok(),
                message: message.to_owned(),
                count: count.count,
            },
            _ => Self {
                fingerprint: None,
                site_version: None,
                message: count.key,
                count: count.count,
            },
        }
    }
}

/// The whole report. Visitors counted without cookies are estimates, and every day says how
/// many of its views were counted that way.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsReport {
    /// The days the report covers; `None` for every day there is.
    pub range: Option<DayRange>,
    pub days: Vec<DailyViews>,
    /// Orders per day, with their totals summed in the currency's minor unit (revenue).
    pub orders: Vec<DailyTotal>,
    pub top_pages: Vec<KeyCount>,
    pub referrers: Vec<KeyCount>,
    pub button_clicks: Vec<KeyCount>,
    pub form_conversion: Vec<FormConversion>,
    /// Page views by the campaign of the tagged link they landed from.
    pub campaigns: Vec<KeyCount>,
    /// Page views by device class.
    pub devices: Vec<KeyCount>,
    /// Products by the number of orders they were in.
    pub top_products: Vec<KeyCount>,
    /// Newsletter sign-ups per day.
    pub newsletter_signups: Vec<DailyTotal>,
    /// Script errors grouped by fingerprint and the site version they happened on.
    pub errors: Vec<ErrorGroup>,
    /// Plugin blocks that failed, by block type.
    pub plugin_failures: Vec<KeyCount>,
    pub web_vitals: Vec<WebVital>,
    /// The vitals of the pages measured most often.
    pub page_vitals: Vec<PageVitals>,
    /// Per experiment and variant: visitors, conversions and the difference with the control.
    pub experiments: Vec<crate::experiments::ExperimentFigures>,
    /// Payment attempts refused by the card-testing defence, by what had failed too often
    /// (visitor, cart or address).
    pub refused_payments: Vec<KeyCount>,
    pub note: &'static str,
}

pub const COOKIELESS_NOTE: &str = "Visitors counted without cookies (cookielessViews) are estimates: one salted hash per visitor per day, so a visitor who returns on another day counts again.";

/// The 0-based index of the nearest-rank percentile among `samples` sorted values.
pub fn nearest_rank(samples: u64, per_mille: u32) -> Option<u64> {
    if samples == 0 {
        return None;
    }
    let rank = (samples * u64::from(per_mille)).div_ceil(1000);
    Some(rank.clamp(1, samples) - 1)
}

fn text<'a>(data: &'a Value, key: &str) -> Option<&'a str> {
    data.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The host of an http(s) URL, lowercased, without a port.
fn host_of(url: &str) -> Option<String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?.split(':').next()?;
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// What the report groups a row of `kind` by: a page view's referring site (only another
/// site's host: a move within the site is not a referral, and the full address is never kept),
/// a button's text, a form's id, an error's message, a performance record's metric name.
pub fn subject_of(kind: &str, data: &Value) -> Option<String> {
    match kind {
        PAGE_VIEW => {
            let referrer = host_of(text(data, "referrer")?)?;
            let own = text(data, "url").and_then(host_of);
            (own.as_deref() != Some(referrer.as_str())).then_some(referrer)
        }
        kinds::BUTTON_CLICK | "button-render" => text(data, "buttonText")
            .or_else(|| text(data, "id"))
            .map(str::to_owned),
        kinds::FORM_RENDER | kinds::FORM_SUBMIT => text(data, "formId").map(str::to_owned),
        kinds::JS_ERROR => {
            let message = data.get("data").and_then(|d| text(d, "message"))?;
            let fingerprint = text(data, "fingerprint");
            let version = data.get("siteVersion").and_then(Value::as_u64);
            Some(error_subject(fingerprint, version, message))
        }
        kinds::ORDER_ITEM => text(data, "product").map(str::to_owned),
        kinds::PLUGIN_FAILURE => text(data, "blockType").map(str::to_owned),
        kinds::PERFORMANCE => text(data, "name").map(str::to_owned),
        kinds::PAYMENT_REFUSED => text(data, "by").map(str::to_owned),
        kinds::EXPERIMENT_EXPOSURE => Some(crate::experiments::exposure_subject(
            text(data, "experiment")?,
            text(data, "variant")?,
        )),
        _ => None,
    }
}

/// The data kept of a row: a page view's `referrer` is dropped once its host is taken as the
/// subject, so no referring address (which may carry search terms or ids) is stored.
pub fn kept_data(kind: &str, data: &Value) -> Value {
    let mut kept = data.clone();
    if kind == PAGE_VIEW
        && let Some(object) = kept.as_object_mut()
    {
        object.remove("referrer");
    }
    kept
}

/// A performance record's measured value, or an order's total (in the currency's minor
/// unit, summed as revenue); other rows have none.
pub fn metric_value_of(kind: &str, data: &Value) -> Option<f64> {
    let field = match kind {
        kinds::PERFORMANCE => "value",
        kinds::ORDER => "totalCents",
        _ => return None,
    };
    data.get(field)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
}

fn count_of(counts: &[KeyCount], key: &str) -> u64 {
    counts.iter().find(|c| c.key == key).map_or(0, |c| c.count)
}

/// How many pages the report lists Web Vitals for.
pub const VITALS_PAGE_LIMIT: u32 = 5;

/// The p75 of each Core Web Vital over `range`, on `page` or on every page.
async fn web_vitals_of(
    store: &dyn AnalyticsStore,
    page: Option<&str>,
    range: DayRange,
) -> Result<Vec<WebVital>, RepositoryError> {
    let mut vitals = Vec::with_capacity(WEB_VITALS.len());
    for name in WEB_VITALS {
        let p75 = store
            .percentile(kinds::PERFORMANCE, name, page, 750, range)
            .await?;
        vitals.push(WebVital {
            name: name.to_owned(),
            p75: p75.map(|p| p.value),
            samples: p75.map_or(0, |p| p.samples),
            rating: p75.and_then(|p| VitalRating::of(name, p.value)),
        });
    }
    Ok(vitals)
}

/// Builds the report of the days of `range` from the store: the one implementation behind
/// `vitrine analytics report`, the owner's JSON endpoint and the dashboard.
pub async fn build_report(
    store: &dyn AnalyticsStore,
    experiments: &crate::experiments::Experiments,
    range: DayRange,
) -> Result<AnalyticsReport, RepositoryError> {
    let days = store.daily_page_views(range).await?;
    let orders = store.daily_totals(kinds::ORDER, range).await?;
    let top = |kind, key, limit| store.top(kind, key, limit, range);
    let top_pages = top(PAGE_VIEW, ReportKey::PagePath, TOP_LIMIT).await?;
    let referrers = top(PAGE_VIEW, ReportKey::Subject, TOP_LIMIT).await?;
    let button_clicks = top(kinds::BUTTON_CLICK, ReportKey::Subject, TOP_LIMIT).await?;
    let renders = top(kinds::FORM_RENDER, ReportKey::Subject, u32::MAX).await?;
    let submissions = top(kinds::FORM_SUBMIT, ReportKey::Subject, u32::MAX).await?;
    let mut form_ids: Vec<&str> = renders
        .iter()
        .chain(&submissions)
        .map(|c| c.key.as_str())
        .collect();
    form_ids.sort_unstable();
    form_ids.dedup();
    let form_conversion = form_ids
        .into_iter()
        .map(|form_id| {
            let renders = count_of(&renders, form_id);
            let submissions = count_of(&submissions, form_id);
            FormConversion {
                form_id: form_id.to_owned(),
                renders,
                submissions,
                rate: (renders > 0).then(|| submissions as f64 / renders as f64),
            }
        })
        .collect();
    let errors = top(kinds::JS_ERROR, ReportKey::Subject, TOP_LIMIT)
        .await?
        .into_iter()
        .map(ErrorGroup::from_count)
        .collect();
    let web_vitals = web_vitals_of(store, None, range).await?;
    let mut page_vitals = Vec::new();
    for page in top(kinds::PERFORMANCE, ReportKey::PagePath, VITALS_PAGE_LIMIT).await? {
        let vitals = web_vitals_of(store, Some(&page.key), range).await?;
        page_vitals.push(PageVitals {
            page_path: page.key,
            vitals,
        });
    }
    Ok(AnalyticsReport {
        range: (range != DayRange::ALL).then_some(range),
        days,
        orders,
        top_pages,
        referrers,
        button_clicks,
        form_conversion,
        campaigns: top(PAGE_VIEW, ReportKey::Campaign, TOP_LIMIT).await?,
        devices: top(PAGE_VIEW, ReportKey::Device, TOP_LIMIT).await?,
        top_products: top(kinds::ORDER_ITEM, ReportKey::Subject, TOP_LIMIT).await?,
        newsletter_signups: store.daily_totals(kinds::NEWSLETTER_SIGNUP, range).await?,
        errors,
        plugin_failures: top(kinds::PLUGIN_FAILURE, ReportKey::Subject, TOP_LIMIT).await?,
        web_vitals,
        page_vitals,
        experiments: crate::experiments::experiment_figures(
            &store.exposure_counts().await?,
            experiments,
        ),
        refused_payments: top(kinds::PAYMENT_REFUSED, ReportKey::Subject, TOP_LIMIT).await?,
        note: COOKIELESS_NOTE,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn nearest_rank_is_the_ceiling_rank() {
        assert_eq!(nearest_rank(0, 750), None);
        assert_eq!(nearest_rank(1, 750), Some(0));
        assert_eq!(nearest_rank(4, 750), Some(2));
        assert_eq!(nearest_rank(5, 750), Some(3));
        assert_eq!(nearest_rank(100, 750), Some(74));
        assert_eq!(nearest_rank(3, 1000), Some(2));
    }

    #[test]
    fn vitals_are_rated_by_their_thresholds_bounds_included_in_the_better_band() {
        assert_eq!(VitalRating::of("LCP", 2500.0), Some(VitalRating::Good));
        assert_eq!(
            VitalRating::of("LCP", 2500.1),
            Some(VitalRating::NeedsImprovement)
        );
        assert_eq!(
            VitalRating::of("INP", 500.0),
            Some(VitalRating::NeedsImprovement)
        );
        assert_eq!(VitalRating::of("INP", 501.0), Some(VitalRating::Poor));
        assert_eq!(VitalRating::of("CLS", 0.1), Some(VitalRating::Good));
        assert_eq!(VitalRating::of("CLS", 0.3), Some(VitalRating::Poor));
        assert_eq!(VitalRating::of("TTFB", 1.0), None);
    }

    #[test]
    fn subjects_keep_only_what_the_report_groups_by() {
        let view = |referrer: &str| json!({"url": "https://shop.example/a", "referrer": referrer, "pagePath": "/a"});
        assert_eq!(
            subject_of(PAGE_VIEW, &view("https://News.example:443/story?id=1")),
            Some("news.example".into())
        );
        assert_eq!(subject_of(PAGE_VIEW, &view("https://shop.example/b")), None);
        assert_eq!(subject_of(PAGE_VIEW, &view("")), None);
        assert_eq!(subject_of(PAGE_VIEW, &view("android-app://x")), None);
        assert_eq!(
            subject_of(kinds::BUTTON_CLICK, &json!({"buttonText": " Shop now "})),
            Some("Shop now".into())
        );
        assert_eq!(
            subject_of(kinds::FORM_SUBMIT, &json!({"formId": "contact"})),
            Some("contact".into())
        );
        let long = "x".repeat(500);
        assert_eq!(
            subject_of(kinds::JS_ERROR, &json!({"data": {"message": long}})).map(|s| s.len()),
            Some(ERROR_SUBJECT_CHARS)
        );
        let error = json!({"fingerprint": "0a1b2c3d4e5f6a7b", "siteVersion": 12, "data": {"message": "x is undefined"}});
        let subject = subject_of(kinds::JS_ERROR, &error).unwrap();
        assert_eq!(
            ErrorGroup::from_count(KeyCount {
                key: subject,
                count: 3
            }),
            ErrorGroup {
                fingerprint: Some("0a1b2c3d4e5f6a7b".into()),
                site_version: Some(12),
                message: "x is undefined".into(),
                count: 3
            }
        );
        assert_eq!(
            ErrorGroup::from_count(KeyCount {
                key: "old message".into(),
                count: 1
            }),
            ErrorGroup {
                fingerprint: None,
                site_version: None,
                message: "old message".into(),
                count: 1
            }
        );
        assert_eq!(
            subject_of(
                kinds::ORDER_ITEM,
                &json!({"orderId": "o", "product": "Mug"})
            ),
            Some("Mug".into())
        );
        assert_eq!(
            subject_of(kinds::PLUGIN_FAILURE, &json!({"blockType": "tour-dates"})),
            Some("tour-dates".into())
        );
        assert_eq!(
            subject_of(kinds::PERFORMANCE, &json!({"name": "LCP", "value": 1200.5})),
            Some("LCP".into())
        );
        assert_eq!(
            metric_value_of(kinds::PERFORMANCE, &json!({"name": "LCP", "value": 1200.5})),
            Some(1200.5)
        );
        assert_eq!(
            metric_value_of(kinds::PERFORMANCE, &json!({"value": "fast"})),
            None
        );
        assert_eq!(metric_value_of(PAGE_VIEW, &json!({"value": 1})), None);
        assert_eq!(
            metric_value_of(kinds::ORDER, &json!({"orderId": "o", "totalCents": 2599})),
            Some(2599.0)
        );
        assert_eq!(
            kept_data(PAGE_VIEW, &view("https://news.example/?q=secret")),
            json!({"url": "https://shop.example/a", "pagePath": "/a"})
        );
    }
}
