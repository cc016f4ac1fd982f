//! `GET /<blog>?format=rss`: a blog's feed as RSS 2.0, the same for every reader (the page
//! service leaves out what the gating check keeps from an anonymous visitor). It goes out like
//! a cached page: a strong entity tag from its bytes, 304 when the reader holds them, and the
//! pages' `Cache-Control`, so a shared cache may keep it for a minute.
//!
//! The XML is written here with the sitemap's escaping: the feed has seven kinds of element,
//! all text, which a writer crate would not make shorter or safer.

use std::fmt::Write;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use time::OffsetDateTime;
use vitrine_core::pages::{FEED_QUERY, Feed, PageError};

use super::seo::escape_xml;
use crate::AppState;
use crate::pages::delivery::{SHARED_MAX_AGE, cache_control};
use crate::shared::entity_tag::{entity_tag, matches_etag};

/// The feed's media type.
pub(crate) const RSS_CONTENT_TYPE: &str = "application/rss+xml; charset=utf-8";

/// Whether a page request's query asks for the feed (`format=rss` among its parameters).
pub(crate) fn asks_for_feed(query: Option<&str>) -> bool {
    query.is_some_and(|query| query.split('&').any(|pair| pair == FEED_QUERY))
}

/// The feed of the blog at `path` for a request with these headers: 404 when there is no
/// public blog there, 503 when the site cannot be read.
pub(crate) async fn feed(state: &AppState, path: &str, request: &HeaderMap) -> Response {
    match state.pages.feed(path).await {
        Ok(Some(feed)) => {
            let xml = rss_xml(&state.config.public_base_url, &feed);
            let etag = entity_tag(xml.as_bytes());
            let mut response = if matches_etag(request, &etag) {
                StatusCode::NOT_MODIFIED.into_response()
            } else {
                ([(CONTENT_TYPE, RSS_CONTENT_TYPE)], xml).into_response()
            };
            let headers = response.headers_mut();
            headers.insert(CACHE_CONTROL, cache_control(SHARED_MAX_AGE));
            headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
            if let Ok(etag) = HeaderValue::from_str(&etag) {
                headers.insert(ETAG, etag);
            }
            response
        }
        Ok(None) => (
            StatusCode::NOT_FOUND,
            [(CACHE_CONTROL, "no-cache")],
            "Not found",
        )
            .into_response(),
        Err(error) => {
            match &error {
                PageError::NoSite => {
                    tracing::warn!(path, "a feed asked for before a site was imported")
                }
                PageError::Repository(error) => {
                    tracing::error!(%error, path, "reading a feed failed")
                }
            }
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(CACHE_CONTROL, "no-store")],
                "The feed is temporarily unavailable.",
            )
                .into_response()
        }
    }
}

/// `feed` as an RSS 2.0 document with absolute links under `public_base_url`.
pub(crate) fn rss_xml(public_base_url: &str, feed: &Feed) -> String {
    let link = format!("{public_base_url}{}", feed.path);
    let own = format!("{link}?{FEED_QUERY}");
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\" \
         xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n<channel>\n",
    );
    // Writing to a String cannot fail.
    let _ = writeln!(xml, "  <title>{}</title>", escape_xml(&feed.title));
    let _ = writeln!(xml, "  <link>{}</link>", escape_xml(&link));
    let _ = writeln!(
        xml,
        "  <description>{}</description>",
        escape_xml(&feed.description)
    );
    let _ = writeln!(xml, "  <language>{}</language>", escape_xml(&feed.language));
    let _ = writeln!(
        xml,
        "  <atom:link href=\"{}\" rel=\"self\" type=\"application/rss+xml\"/>",
        escape_xml(&own)
    );
    if let Some(newest) = feed
        .entries
        .first()
        .and_then(|entry| rfc2822(entry.published_on))
    {
        let _ = writeln!(xml, "  <lastBuildDate>{newest}</lastBuildDate>");
    }
    for entry in &feed.entries {
        let url = escape_xml(&format!("{public_base_url}{}", entry.path));
        xml.push_str("  <item>\n");
        let _ = writeln!(xml, "    <title>{}</title>", escape_xml(&entry.title));
        let _ = writeln!(xml, "    <link>{url}</link>");
        let _ = writeln!(xml, "    <guid isPermaLink=\"true\">{url}</guid>");
        if let Some(date) = rfc2822(entry.published_on) {
            let _ = writeln!(xml, "    <pubDate>{date}</pubDate>");
        }
        if let Some(author) = entry.author.as_deref().filter(|a| !a.trim().is_empty()) {
            let _ = writeln!(xml, "    <dc:creator>{}</dc:creator>", escape_xml(author));
        }
        if !entry.summary.is_empty() {
            let _ = writeln!(
                xml,
                "    <description>{}</description>",
                escape_xml(&entry.summary)
            );
        }
        xml.push_str("  </item>\n");
    }
    xml.push_str("</channel>\n</rss>\n");
    xml
}

/// The date RSS asks for (RFC 822, written the RFC 2822 way with a four-digit year) of a
/// time in milliseconds since the Unix epoch, in UTC; none outside the calendar's range.
fn rfc2822(epoch_millis: i64) -> Option<String> {
    let at = OffsetDateTime::from_unix_timestamp(epoch_millis.div_euclid(1000)).ok()?;
    let weekday = at.weekday().to_string();
    let month = at.month().to_string();
    Some(format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
        weekday.get(..3)?,
        at.day(),
        month.get(..3)?,
        at.year(),
        at.hour(),
        at.minute(),
        at.second()
    ))
}

#[cfg(test)]
mod tests {
    use vitrine_core::pages::FeedEntry;

    use super::*;

    #[test]
    fn only_the_format_parameter_asks_for_the_feed() {
        assert!(asks_for_feed(Some("format=rss")));
        assert!(asks_for_feed(Some("utm_source=x&format=rss")));
        assert!(!asks_for_feed(Some("format=rss2")));
        assert!(!asks_for_feed(Some("xformat=rss")));
        assert!(!asks_for_feed(None));
    }

    #[test]
    fn dates_are_written_as_rss_readers_expect() {
        assert_eq!(
            rfc2822(1_700_000_000_000).as_deref(),
            Some("Tue, 14 Nov 2023 22:13:20 +0000")
        );
        assert_eq!(
            rfc2822(0).as_deref(),
            Some("Thu, 01 Jan 1970 00:00:00 +0000")
        );
    }

    #[test]
    fn the_feed_lists_its_posts_with_absolute_links_and_escaped_text() {
        let feed = Feed {
            title: "Journal — Tea & Clay".into(),
            description: "Notes <from> the studio".into(),
            path: "/journal".into(),
            language: "en-US".into(),
            entries: vec![
                FeedEntry {
                    title: "Firing \"cone 6\"".into(),
                    path: "/journal/firing".into(),
                    published_on: 1_700_000_000_000,
                    summary: "Glazes & kilns".into(),
                    author: Some("Ada".into()),
                },
                FeedEntry {
                    title: "Hello".into(),
                    path: "/journal/hello".into(),
                    published_on: 0,
                    summary: String::new(),
                    author: None,
                },
            ],
        };
        expect_test::expect![[r#"
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel>
              <title>Journal — Tea &amp; Clay</title>
              <link>https://shop.example/journal</link>
              <description>Notes &lt;from&gt; the studio</description>
              <language>en-US</language>
              <atom:link href="https://shop.example/journal?format=rss" rel="self" type="application/rss+xml"/>
              <lastBuildDate>Tue, 14 Nov 2023 22:13:20 +0000</lastBuildDate>
              <item>
                <title>Firing &quot;cone 6&quot;</title>
                <link>https://shop.example/journal/firing</link>
                <guid isPermaLink="true">https://shop.example/journal/firing</guid>
                <pubDate>Tue, 14 Nov 2023 22:13:20 +0000</pubDate>
                <dc:creator>Ada</dc:creator>
                <description>Glazes &amp; kilns</description>
              </item>
              <item>
                <title>Hello</title>
                <link>https://shop.example/journal/hello</link>
                <guid isPermaLink="true">https://shop.example/journal/hello</guid>
                <pubDate>Thu, 01 Jan 1970 00:00:00 +0000</pubDate>
              </item>
            </channel>
            </rss>
        "#]]
        .assert_eq(&rss_xml("https://shop.example", &feed));
    }
}
