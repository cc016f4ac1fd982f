//! Cached pages at static-file speed: the brotli or gzip copy made once per site revision, a
//! strong entity tag per copy, 304 on a match, and headers that let a shared cache keep them.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::ports::SiteRepository;
use vitrine_http::HttpConfig;

use crate::support::{self, Answer, SITE_TITLE, send};

const BROWSER: &str = "gzip, deflate, br, zstd";
const SHARED_CACHE: &str = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";

fn request(
    path: &str,
    accept_encoding: Option<&str>,
    if_none_match: Option<&str>,
) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(accept) = accept_encoding {
        request = request.header("accept-encoding", accept);
    }
    if let Some(etag) = if_none_match {
        request = request.header("if-none-match", etag);
    }
    request.body(Body::empty()).unwrap()
}

/// The page once its compressed copies are in the cache: they are made on the blocking pool
/// after the first visit, so this asks until the answer carries an entity tag.
async fn settled(app: &Router, path: &str, accept_encoding: Option<&str>) -> Answer {
    for _ in 0..1000 {
        let answer = send(app, request(path, accept_encoding, None)).await;
        if answer.headers.contains_key("etag") {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{path} never got its compressed copies");
}

fn brotli_decoded(body: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::new();
    brotli::BrotliDecompress(&mut &body[..], &mut decoded).unwrap();
    decoded
}

fn gzip_decoded(body: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(body)
        .read_to_end(&mut decoded)
        .unwrap();
    decoded
}

#[tokio::test]
async fn every_copy_of_a_cached_page_decodes_to_the_same_html_under_its_own_entity_tag() {
    let app = support::app().await;
    let brotli = settled(&app, "/", Some(BROWSER)).await;
    let gzip = send(&app, request("/", Some("gzip, deflate"), None)).await;
    let identity = send(&app, request("/", None, None)).await;

    assert_eq!(brotli.header("content-encoding"), "br");
    assert_eq!(gzip.header("content-encoding"), "gzip");
    assert!(identity.headers.get("content-encoding").is_none());
    assert!(identity.text().contains(SITE_TITLE));
    assert_eq!(brotli_decoded(&brotli.body), identity.body);
    assert_eq!(gzip_decoded(&gzip.body), identity.body);

    let tags = [&brotli, &gzip, &identity].map(|answer| answer.header("etag").to_owned());
    assert!(
        tags.iter().all(|tag| tag.starts_with('"')),
        "strong: {tags:?}"
    );
    assert_ne!(tags[0], tags[1]);
    assert_ne!(tags[0], tags[2]);
    assert_ne!(tags[1], tags[2]);
    for answer in [&brotli, &gzip, &identity] {
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.header("vary"), "Accept-Encoding");
        assert_eq!(answer.header("cache-control"), SHARED_CACHE);
        assert_eq!(answer.header("content-type"), "text/html; charset=utf-8");
    }
}

#[tokio::test]
async fn a_zero_q_value_refuses_an_encoding() {
    let app = support::app().await;
    settled(&app, "/", Some(BROWSER)).await;
    let no_brotli = send(&app, request("/", Some("br;q=0, gzip"), None)).await;
    assert_eq!(no_brotli.header("content-encoding"), "gzip");
    let neither = send(&app, request("/", Some("br;q=0, gzip;q=0, deflate"), None)).await;
    assert!(
        neither.headers.get("content-encoding").is_none(),
        "the layer does not compress a cached page either: {:?}",
        neither.headers
    );
    assert!(neither.text().contains(SITE_TITLE));
    let preferred = send(&app, request("/", Some("br;q=0.5, gzip;q=0.8"), None)).await;
    assert_eq!(preferred.header("content-encoding"), "gzip");
}

/// tower-http's compression layer answers 406 to a client that refuses the original bytes
/// and every coding the layer knows; it once saw cached pages too and turned them into 406s,
/// although their negotiation sends the original bytes then (refusing a page helps nobody).
#[tokio::test]
async fn a_cached_page_refusing_every_coding_still_goes_out_as_its_original_bytes() {
    let app = support::app().await;
    settled(&app, "/", Some(BROWSER)).await;
    let refused = send(&app, request("/", Some("identity;q=0, zstd"), None)).await;
    assert_eq!(refused.status, StatusCode::OK);
    assert!(refused.headers.get("content-encoding").is_none());
    assert!(refused.text().contains(SITE_TITLE));
}

#[tokio::test]
async fn a_matching_if_none_match_answers_304_without_a_body() {
    let app = support::app().await;
    let first = settled(&app, "/", Some(BROWSER)).await;
    let etag = first.header("etag");

    let again = send(&app, request("/", Some(BROWSER), Some(etag))).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), etag);
    assert_eq!(again.header("cache-control"), SHARED_CACHE);
    assert_eq!(again.header("vary"), "Accept-Encoding");
    assert!(again.headers.get("content-encoding").is_none());

    let weak = format!("\"other\", W/{etag}");
    let listed = send(&app, request("/", Some(BROWSER), Some(&weak))).await;
    assert_eq!(listed.status, StatusCode::NOT_MODIFIED);

    // The brotli copy's tag does not validate the gzip copy: those are other bytes.
    let other_copy = send(&app, request("/", Some("gzip"), Some(etag))).await;
    assert_eq!(other_copy.status, StatusCode::OK);
    assert_eq!(other_copy.header("content-encoding"), "gzip");
}

#[tokio::test]
async fn a_new_site_revision_changes_the_entity_tag() {
    let repository = support::repository().await;
    let app = support::router_with(
        repository.clone() as Arc<dyn SiteRepository>,
        support::fixture_assets(),
        support::config().with_revision_check_interval(Duration::ZERO),
    );
    let before = settled(&app, "/", Some(BROWSER)).await;
    let mut site = support::site();
    site.settings.site_title = "Renamed Shop".to_owned();
    repository.replace_site(&site).await.unwrap();

    let after = settled(&app, "/", Some(BROWSER)).await;
    assert!(
        String::from_utf8(brotli_decoded(&after.body))
            .unwrap()
            .contains("Renamed Shop")
    );
    assert_ne!(after.header("etag"), before.header("etag"));
    let stale = send(
        &app,
        request("/", Some(BROWSER), Some(before.header("etag"))),
    )
    .await;
    assert_eq!(stale.status, StatusCode::OK, "an old copy is not confirmed");
}

#[tokio::test]
async fn pages_a_shared_cache_may_keep_carry_no_cookie() {
    let app = support::app().await;
    let first = send(&app, request("/journal", Some(BROWSER), None)).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.header("cache-control"), SHARED_CACHE);
    let cached = settled(&app, "/journal", Some(BROWSER)).await;
    for answer in [&first, &cached] {
        assert!(
            answer.headers.get("set-cookie").is_none(),
            "{:?}",
            answer.headers
        );
    }
}

#[tokio::test]
async fn responses_outside_the_page_cache_are_still_compressed_per_response() {
    let app = support::app().await;
    let missing = send(&app, request("/missing", Some("gzip"), None)).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.header("content-encoding"), "gzip");
    assert_eq!(missing.header("cache-control"), "no-cache");
    assert!(missing.headers.get("etag").is_none());
    assert!(String::from_utf8(gzip_decoded(&missing.body)).is_ok());
}

/// Every header of `answer` as sorted `name: value` lines; the request id, the entity tag and
/// the length differ per request and per build of the page, so only their shape is kept.
fn header_lines(answer: &Answer) -> String {
    let mut lines: Vec<String> = answer
        .headers
        .iter()
        .map(|(name, value)| {
            let value = value.to_str().unwrap();
            let shown = match name.as_str() {
                "x-request-id" => format!("<uuid of {} characters>", value.len()),
                "content-length" => {
                    assert_eq!(value, answer.body.len().to_string());
                    "<the body's length>".to_owned()
                }
                "etag" => {
                    assert!(value.starts_with('"') && value.ends_with('"'), "{value}");
                    "<strong tag>".to_owned()
                }
                _ => value.to_owned(),
            };
            format!("{name}: {shown}")
        })
        .collect();
    lines.sort();
    lines.join("\n")
}

/// The answer of a cached page carries every header the layers around the router give (the
/// security headers, HSTS over TLS, the request id) besides its own (entity tag, `Vary`,
/// `Cache-Control`), whatever shortcut a page view takes through them; a 304 as well.
#[tokio::test]
async fn a_cached_page_answer_carries_every_header_of_the_layers_around_the_router() {
    let tls = support::router_with(
        support::repository().await,
        support::fixture_assets(),
        HttpConfig {
            secure_cookies: true,
            ..support::config()
        },
    );
    let brotli = settled(&tls, "/", Some(BROWSER)).await;
    expect_test::expect![[r#"
        cache-control: public, max-age=0, s-maxage=60, stale-while-revalidate=60
        content-encoding: br
        content-length: <the body's length>
        content-security-policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'
        content-type: text/html; charset=utf-8
        etag: <strong tag>
        permissions-policy: accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()
        referrer-policy: strict-origin-when-cross-origin
        strict-transport-security: max-age=31536000
        vary: Accept-Encoding
        x-content-type-options: nosniff
        x-frame-options: SAMEORIGIN
        x-request-id: <uuid of 36 characters>"#]]
    .assert_eq(&header_lines(&brotli));

    let revalidated = send(
        &tls,
        request("/", Some(BROWSER), Some(brotli.header("etag"))),
    )
    .await;
    assert_eq!(revalidated.status, StatusCode::NOT_MODIFIED);
    expect_test::expect![[r#"
        cache-control: public, max-age=0, s-maxage=60, stale-while-revalidate=60
        content-length: <the body's length>
        content-security-policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'
        etag: <strong tag>
        permissions-policy: accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()
        referrer-policy: strict-origin-when-cross-origin
        strict-transport-security: max-age=31536000
        vary: Accept-Encoding
        x-content-type-options: nosniff
        x-frame-options: SAMEORIGIN
        x-request-id: <uuid of 36 characters>"#]]
    .assert_eq(&header_lines(&revalidated));

    let plain = support::app().await;
    let identity = settled(&plain, "/", None).await;
    expect_test::expect![[r#"
        cache-control: public, max-age=0, s-maxage=60, stale-while-revalidate=60
        content-length: <the body's length>
        content-security-policy: default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src https://www.youtube-nocookie.com https://player.vimeo.com; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'
        content-type: text/html; charset=utf-8
        etag: <strong tag>
        permissions-policy: accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()
        referrer-policy: strict-origin-when-cross-origin
        vary: Accept-Encoding
        x-content-type-options: nosniff
        x-frame-options: SAMEORIGIN
        x-request-id: <uuid of 36 characters>"#]]
    .assert_eq(&header_lines(&identity));
}

/// A cached page an anonymous visitor asks for is answered before the router's layers; with a
/// query string (a campaign's link) the same page goes through them all. Both answers must be
/// the same, header for header and byte for byte, over TLS and not, in every encoding and as a
/// 304.
#[tokio::test]
async fn a_cached_page_answered_before_the_router_is_the_routers_own_answer() {
    for secure_cookies in [true, false] {
        let app = support::router_with(
            support::repository().await,
            support::fixture_assets(),
            HttpConfig {
                secure_cookies,
                ..support::config()
            },
        );
        let etag = settled(&app, "/", Some(BROWSER))
            .await
            .header("etag")
            .to_owned();
        for (accept, if_none_match) in [
            (Some(BROWSER), None),
            (Some("gzip"), None),
            (None, None),
            (Some(BROWSER), Some(etag.as_str())),
        ] {
            let before = send(&app, request("/", accept, if_none_match)).await;
            let through = send(&app, request("/?utm_source=letter", accept, if_none_match)).await;
            let case = format!("TLS {secure_cookies}, {accept:?}, {if_none_match:?}");
            assert_eq!(before.status, through.status, "{case}");
            assert_eq!(header_lines(&before), header_lines(&through), "{case}");
            assert_eq!(before.body, through.body, "{case}");
        }
    }
}
