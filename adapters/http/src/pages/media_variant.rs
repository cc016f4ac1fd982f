//! A request for an image at one of the spec's widths (001 s3 "size format"):
//! `/media/photo.jpg?format=500w` or `/media/photo-500w.jpg`, optionally with `v=` carrying
//! the file's content hash. The answer is WebP when the browser's `Accept` takes it and the
//! original's format otherwise (`Vary: Accept`), never wider than the original; its ETag is
//! the content hash, width and format, so a revalidation is answered 304 without resizing.

use std::sync::Arc;

use axum::http::header::{ACCEPT, CACHE_CONTROL, CONTENT_TYPE, ETAG, RETRY_AFTER, VARY};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::site::{IMAGE_WIDTHS, ImageWidth, MediaFile, split_filename_variant};
use vitrine_media::{OutputFormat, plan};

use crate::AppState;
use crate::pages::image_variants::{SourceFacts, VariantError, key};
use crate::shared::entity_tag::matches_etag;

/// A variant whose URL names the file's content hash never changes: a year, immutable.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// A variant asked for without the hash may change with a re-import.
const REVALIDATED: &str = "public, max-age=2592000";

/// What a `/media/` path and query ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum MediaRequest {
    /// The file as stored.
    File { name: String },
    /// The file `name` at `width` (`None`: full size, `?format=original`), or, for a
    /// file-name variant whose original does not exist, the file `literal` as stored.
    Variant {
        name: String,
        width: Option<ImageWidth>,
        version: Option<String>,
        literal: Option<String>,
    },
}

/// The text of a `?format=` that names no size.
pub(crate) fn unknown_size(value: &str) -> String {
    let sizes: Vec<String> = IMAGE_WIDTHS.iter().map(|w| format!("{w}w")).collect();
    format!(
        "Unknown image size '{}': use one of {} or original.",
        value.chars().take(40).collect::<String>(),
        sizes.join(", ")
    )
}

impl MediaRequest {
    /// Reads the name after `/media/` and the query string.
    pub(crate) fn parse(name: &str, query: Option<&str>) -> Result<Self, String> {
        let mut format = None;
        let mut version = None;
        for (field, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
            match field.as_ref() {
                "format" => format = Some(value.into_owned()),
                "v" => version = Some(value.into_owned()),
                _ => {}
            }
        }
        if let Some(format) = format {
            let width = if format == "original" {
                None
            } else {
                Some(ImageWidth::parse(&format).ok_or_else(|| unknown_size(&format))?)
            };
            return Ok(Self::Variant {
                name: name.to_owned(),
                width,
                version,
                literal: None,
            });
        }
        Ok(match split_filename_variant(name) {
            Some((original, width)) => Self::Variant {
                name: original,
                width: Some(width),
                version,
                literal: Some(name.to_owned()),
            },
            None => Self::File {
                name: name.to_owned(),
            },
        })
    }
}

/// True when the browser says it takes WebP (`image/webp` with a quality above zero).
pub(crate) fn accepts_webp(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|range| {
            let mut parts = range.split(';').map(str::trim);
            let is_webp = parts
                .next()
                .is_some_and(|kind| kind.eq_ignore_ascii_case("image/webp"));
            let refused = parts.any(|param| {
                param
                    .strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            is_webp && !refused
        })
}

/// The original at `site_path`, from the repository.
pub(crate) type Original = Result<Option<Arc<MediaFile>>, Response>;

/// Answers a variant of the original at `site_path`, whose facts are `facts` and whose bytes
/// `read` fetches when the variant must be made.
pub(crate) async fn answer(
    state: &AppState,
    facts: &SourceFacts,
    width: Option<ImageWidth>,
    version: Option<&str>,
    headers: &HeaderMap,
    read: impl AsyncFnOnce() -> Original,
) -> Response {
    let header = match &facts.header {
        Ok(header) => *header,
        Err(refusal) => return refused(&refusal.to_string()),
    };
    let pixels = width.map(ImageWidth::pixels);
    let cache = if version == Some(facts.hash.as_str()) {
        IMMUTABLE
    } else {
        REVALIDATED
    };
    let Some(format) = plan(&header, pixels, accepts_webp(headers)) else {
        // The original is what this browser gets at this width: its own bytes.
        let etag = format!("\"{}-original\"", facts.hash);
        if matches_etag(headers, &etag) {
            return not_modified(&etag, cache);
        }
        return match read().await {
            Ok(Some(file)) => {
                let content_type = file.content_type.clone();
                with_headers(file.bytes.clone(), &content_type, &etag, cache)
            }
            Ok(None) => not_found(),
            Err(response) => response,
        };
    };
    let key = key(facts, pixels, format);
    let etag = format!(
        "\"{}-{}-{}\"",
        facts.hash,
        width.map_or_else(|| "full".to_owned(), |w| w.to_string()),
        format.extension()
    );
    if matches_etag(headers, &etag) {
        return not_modified(&etag, cache);
    }
    let missing = std::sync::atomic::AtomicBool::new(false);
    let variant = state
        .image_variants
        .variant(&key, async || match read().await {
            Ok(Some(file)) => Ok(file),
            Ok(None) => {
                missing.store(true, std::sync::atomic::Ordering::Relaxed);
                Err(VariantError::Failed)
            }
            Err(_) => Err(VariantError::Failed),
        })
        .await;
    match variant {
        Ok(variant) => with_headers(variant.bytes.clone(), content_type(format), &etag, cache),
        Err(VariantError::Refused(refusal)) => refused(&refusal.to_string()),
        Err(VariantError::Busy) => busy(),
        Err(VariantError::Failed) if missing.into_inner() => not_found(),
        Err(VariantError::Failed) => crate::pages::media::unavailable(),
    }
}

fn content_type(format: OutputFormat) -> &'static str {
    format.content_type()
}

fn with_headers(body: Vec<u8>, content_type: &str, etag: &str, cache: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_str(content_type)
            .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream")),
    );
    insert_caching(headers, etag, cache);
    response
}

fn not_modified(etag: &str, cache: &'static str) -> Response {
    let mut response = StatusCode::NOT_MODIFIED.into_response();
    insert_caching(response.headers_mut(), etag, cache);
    response
}

fn insert_caching(headers: &mut HeaderMap, etag: &str, cache: &'static str) {
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(cache));
    headers.insert(VARY, HeaderValue::from_static("Accept"));
    if let Ok(etag) = HeaderValue::from_str(etag) {
        headers.insert(ETAG, etag);
    }
}

/// A refused original: 422 with the reason, which stays the same until the file changes.
fn refused(reason: &str) -> Response {
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        [(CACHE_CONTROL, "no-store")],
        reason.to_owned(),
    )
        .into_response()
}

fn busy() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(CACHE_CONTROL, "no-store"), (RETRY_AFTER, "1")],
        "Too many images are being resized right now. Please try again in a moment.",
    )
        .into_response()
}

pub(crate) fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(CACHE_CONTROL, "no-cache")],
        "Not found",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_size_formats_and_the_plain_file_parse() {
        let variant = |name: &str, width: u32, literal: Option<&str>| MediaRequest::Variant {
            name: name.to_owned(),
            width: ImageWidth::from_pixels(width),
            version: None,
            literal: literal.map(str::to_owned),
        };
        assert_eq!(
            MediaRequest::parse("a.jpg", Some("format=500w")),
            Ok(variant("a.jpg", 500, None))
        );
        assert_eq!(
            MediaRequest::parse("a-300w.jpg", None),
            Ok(variant("a.jpg", 300, Some("a-300w.jpg")))
        );
        assert_eq!(
            MediaRequest::parse("a.jpg", Some("x=1")),
            Ok(MediaRequest::File {
                name: "a.jpg".into()
            })
        );
        assert_eq!(
            MediaRequest::parse("a.jpg", Some("format=123w")),
            Err(
                "Unknown image size '123w': use one of 2500w, 1500w, 1000w, 750w, 500w, \
                 300w, 100w or original."
                    .to_owned()
            )
        );
    }

    #[test]
    fn webp_is_taken_only_when_named_without_q_zero() {
        let accept = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(ACCEPT, HeaderValue::from_str(value).unwrap());
            accepts_webp(&headers)
        };
        assert!(accept("image/avif,image/webp,image/apng,*/*;q=0.8"));
        assert!(!accept("image/png,image/*;q=0.8,*/*;q=0.5"));
        assert!(!accept("image/webp;q=0"));
        assert!(accept("IMAGE/WEBP ; q=0.5"));
    }
}
