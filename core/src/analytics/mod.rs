//! First-party analytics: the tracking cookies and their formats (000 s3, s5, s9), who is
//! counted (000 s6), the hit payload (000 s3), cookieless counting, ingest batching and the
//! client error reporter's limits (000 s9), the campaign and device class of a page view, and
//! the owner's report and dashboard over a range of days with the daily roll-ups they read.

mod batching;
#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
mod cookieless;
mod cookies;
mod counting;
mod dashboard;
mod error_report;
mod hit;
mod range;
mod report;
mod report_text;
mod rollup;
mod sample_traffic;
mod segments;
mod store;
mod stored_limits;

pub use batching::{BatchPolicy, HitBuffer, PushOutcome};
pub use cookieless::{DailySalt, VisitorKey, cookieless_visitor_hash, day_number};
pub use cookies::{
    ANALYTICS_COOKIE, ANALYTICS_COOKIE_MAX_AGE_SECONDS, CookieFormatError, VISIT_COOKIE,
    VISIT_COOKIE_MAX_AGE_SECONDS, VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE_SECONDS, VisitCookie,
    VisitorCookie, VisitorId,
};
pub use counting::{HitExclusion, PageKind, ViewerRole, hit_exclusion};
pub use dashboard::{Dashboard, PeriodChanges, PeriodTotals, build_dashboard};
pub use error_report::{
    ErrorReporter, MAX_QUEUED, MAX_SENDS_PER_PAGE, MAX_STACK_CHARS, SEND_DEBOUNCE_MS,
    error_fingerprint, truncate_stack,
};
pub use hit::{ContentSource, HitPayload, HitPayloadError};
pub use range::{
    DayRange, DayRangeError, MAX_RANGE_DAYS, RangePreset, chosen_range, parse_iso_date,
    percent_change,
};
pub use report::{
    AnalyticsReport, COOKIELESS_NOTE, ErrorGroup, FormConversion, KeyCount, PageVitals, Percentile,
    ReportKey, VitalRating, WEB_VITALS, WebVital, build_report, kept_data, kinds, metric_value_of,
    nearest_rank, subject_of,
};
pub use report_text::{iso_date, to_text as report_text};
pub use rollup::{Counted, DayCount, day_counts, page_view_visitors};
pub use sample_traffic::sample_day;
pub use segments::{DeviceClass, campaign_of, device_of};
pub use store::{
    AnalyticsStore, DailyTotal, DailyViews, ExposureCount, MemoryAnalyticsStore, PAGE_VIEW,
    StoredHit,
};
pub use stored_limits::{
    MAX_BODY_BYTES, MAX_PAGE_PATH_CHARS, MAX_SUBJECT_CHARS, MAX_TEXT_CHARS, bounded_hit,
};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod memory_conformance {
    use super::MemoryAnalyticsStore;
    use crate::consent::MemoryConsentReceiptStore;

    crate::analytics_store_conformance!(MemoryAnalyticsStore::new());

    mod receipts {
        use super::MemoryConsentReceiptStore;
        crate::consent_receipt_store_conformance!(MemoryConsentReceiptStore::new());
    }
}
