//! Strong entity tags from content, and the `If-None-Match` check that answers 304: shared by
//! site media and cached pages.

use axum::http::HeaderMap;
use axum::http::header::IF_NONE_MATCH;
use sha2::{Digest, Sha256};

/// A strong entity tag from the bytes sent: equal bytes, equal tag, whatever the import; a
/// compressed copy has bytes, and so a tag, of its own.
pub(crate) fn entity_tag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("\"{}\"", hex::encode(&digest[..16]))
}

/// Whether the client already holds `etag`. `If-None-Match` compares weakly, so a `W/` prefix a
/// proxy added still matches.
pub(crate) fn matches_etag(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == etag || tag == "*")
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn entity_tags_follow_the_content() {
        assert_eq!(entity_tag(b"a"), entity_tag(b"a"));
        assert_ne!(entity_tag(b"a"), entity_tag(b"b"));
        assert_eq!(entity_tag(b"a").len(), 34);
    }

    #[test]
    fn if_none_match_accepts_lists_and_weak_tags() {
        let etag = entity_tag(b"a");
        let mut headers = HeaderMap::new();
        headers.insert(
            IF_NONE_MATCH,
            HeaderValue::from_str(&format!("\"other\", W/{etag}")).unwrap(),
        );
        assert!(matches_etag(&headers, &etag));
        assert!(!matches_etag(&HeaderMap::new(), &etag));
    }
}
