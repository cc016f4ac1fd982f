//! What crawlers read: `sitemap.xml` lists every published page with absolute URLs, and
//! `robots.txt` allows everything and points at the sitemap.

use std::fmt::Write;

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use vitrine_core::pages::{PageError, SitemapEntry};

use crate::AppState;

/// `GET /sitemap.xml`.
pub(crate) async fn sitemap(State(state): State<AppState>) -> Response {
    match state.pages.sitemap().await {
        Ok(entries) => (
            [
                (CONTENT_TYPE, "application/xml; charset=utf-8"),
                (CACHE_CONTROL, "no-cache"),
            ],
            sitemap_xml(&state.config.public_base_url, &entries),
        )
            .into_response(),
        Err(error) => {
            match &error {
                PageError::NoSite => tracing::warn!("sitemap asked for before a site was imported"),
                PageError::Repository(error) => {
                    tracing::error!(%error, "reading the sitemap failed")
                }
            }
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(CACHE_CONTROL, "no-store")],
                "The sitemap is temporarily unavailable.",
            )
                .into_response()
        }
    }
}

/// `GET /robots.txt`.
pub(crate) async fn robots(State(state): State<AppState>) -> Response {
    (
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        robots_txt(&state.config.public_base_url),
    )
        .into_response()
}

pub(crate) fn robots_txt(public_base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\n\nSitemap: {public_base_url}/sitemap.xml\n")
}

pub(crate) fn sitemap_xml(public_base_url: &str, entries: &[SitemapEntry]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"",
    );
    if entries.iter().any(|entry| !entry.alternates.is_empty()) {
        xml.push_str(" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"");
    }
    xml.push_str(">\n");
    for entry in entries {
        let location = format!("{public_base_url}{}", entry.path);
        // Writing to a String cannot fail.
        let _ = write!(xml, "  <url><loc>{}</loc>", escape_xml(&location));
        if let Some(date) = entry.last_modified.and_then(iso_date) {
            let _ = write!(xml, "<lastmod>{date}</lastmod>");
        }
        for alternate in &entry.alternates {
            let href = format!("{public_base_url}{}", alternate.path);
            let _ = write!(
                xml,
                "<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>",
                escape_xml(&alternate.hreflang),
                escape_xml(&href)
            );
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

/// `text` with the five characters XML gives meaning to written as entities: for text and
/// attribute values alike (the feed writes its text with it too).
pub(super) fn escape_xml(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&apos;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// A `YYYY-MM-DD` date (UTC) for milliseconds since the Unix epoch; `None` before year 1 or
/// after 9999, which no real publication date is.
pub(crate) fn iso_date(epoch_millis: i64) -> Option<String> {
    let days = epoch_millis.div_euclid(86_400_000);
    let (year, month, day) = civil_from_days(days);
    (1..=9999)
        .contains(&year)
        .then(|| format!("{year:04}-{month:02}-{day:02}"))
}

/// The proleptic Gregorian date of a day count since 1970-01-01, by splitting time into
/// 400-year eras of 146,097 days whose years start on 1 March, so leap days fall at year end.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction: day 1..=31, month 1..=12.
    (year, month as u32, day as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(iso_date(0).as_deref(), Some("1970-01-01"));
        assert_eq!(iso_date(1_600_000_000_000).as_deref(), Some("2020-09-13"));
        assert_eq!(iso_date(951_782_400_000).as_deref(), Some("2000-02-29"));
        assert_eq!(iso_date(-1).as_deref(), Some("1969-12-31"));
        assert_eq!(iso_date(i64::MAX), None);
    }

    #[test]
    fn the_sitemap_lists_absolute_urls_with_dates() {
        let entries = [
            SitemapEntry {
                path: "/".into(),
                last_modified: None,
                alternates: Vec::new(),
            },
            SitemapEntry {
                path: "/shop/tea&cake".into(),
                last_modified: Some(1_700_000_000_000),
                alternates: Vec::new(),
            },
        ];
        expect_test::expect![[r#"
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
              <url><loc>https://shop.example/</loc></url>
              <url><loc>https://shop.example/shop/tea&amp;cake</loc><lastmod>2023-11-14</lastmod></url>
            </urlset>
        "#]]
        .assert_eq(&sitemap_xml("https://shop.example", &entries));
    }

    #[test]
    fn robots_allow_all_and_name_the_sitemap() {
        expect_test::expect![[r#"
            User-agent: *
            Allow: /

            Sitemap: https://shop.example/sitemap.xml
        "#]]
        .assert_eq(&robots_txt("https://shop.example"));
    }
}
