//! The link shapes of 000 §2: internal content links start with `/`, file links with `/s/`,
//! collection panel links are `/pages/{24-character id}`, and comment links are the page's
//! base URL plus the item link with `#comment-{id}`, or `#disqus_thread` when a third-party
//! comment service shortname is configured.

use std::fmt;

/// Whether a link points at content on this site. A `//host` link is protocol-relative, so
/// it leaves the site and is not internal.
pub fn is_internal_content_link(link: &str) -> bool {
    link.starts_with('/') && !link.starts_with("//")
}

/// Whether a link points at an uploaded file.
pub fn is_file_link(link: &str) -> bool {
    link.starts_with("/s/")
}

/// A text that cannot be a collection panel id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("collection panel id {0:?} must be exactly 24 letters or digits")]
pub struct InvalidCollectionPanelId(pub String);

/// The id in a collection panel link: exactly 24 ASCII letters or digits (the platform's
/// ids are 24 hexadecimal characters; we accept any alphanumerics so imported ids work).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CollectionPanelId(String);

impl CollectionPanelId {
    pub const LEN: usize = 24;

    pub fn parse(id: &str) -> Result<Self, InvalidCollectionPanelId> {
        if id.len() == Self::LEN && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            Ok(Self(id.to_owned()))
        } else {
            Err(InvalidCollectionPanelId(id.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CollectionPanelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `/pages/{id}`, the link that opens a collection's panel.
pub fn collection_panel_link(id: &CollectionPanelId) -> String {
    format!("/pages/{id}")
}

/// The id of a collection panel link, if the path is one (a trailing slash is allowed).
pub fn parse_collection_panel_link(path: &str) -> Option<CollectionPanelId> {
    let id = path.strip_prefix("/pages/")?;
    CollectionPanelId::parse(id.strip_suffix('/').unwrap_or(id)).ok()
}

/// The link to a comment, or to the comment thread of a third-party service.
///
/// The base URL and the item link are joined with exactly one slash between them, so
/// `https://example.com/` and `/blog/post` give `https://example.com/blog/post`. When
/// `disqus_shortname` is set (and not blank) the comments live with that service and the
/// link ends in `#disqus_thread`; otherwise it ends in `#comment-{comment_id}`.
pub fn comment_link(
    base_url: &str,
    item_link: &str,
    comment_id: &str,
    disqus_shortname: Option<&str>,
) -> String {
    let base = base_url.trim_end_matches('/');
    let item = item_link.trim_start_matches('/');
    let fragment = match disqus_shortname {
        Some(shortname) if !shortname.trim().is_empty() => "disqus_thread".to_owned(),
        _ => format!("comment-{comment_id}"),
    };
    format!("{base}/{item}#{fragment}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "5f1a2b3c4d5e6f7a8b9c0d1e";

    #[test]
    fn content_and_file_links() {
        assert!(is_internal_content_link("/shop"));
        assert!(!is_internal_content_link("//cdn.example.com/x"));
        assert!(!is_internal_content_link("https://example.com/shop"));
        assert!(is_file_link("/s/menu.pdf"));
        assert!(!is_file_link("/shop/menu.pdf"));
    }

    #[test]
    fn collection_panel_links_need_a_24_character_id() {
        let id = CollectionPanelId::parse(ID).unwrap();
        assert_eq!(collection_panel_link(&id), format!("/pages/{ID}"));
        assert_eq!(
            parse_collection_panel_link(&format!("/pages/{ID}/")),
            Some(id)
        );
        assert_eq!(parse_collection_panel_link("/pages/short"), None);
        assert_eq!(parse_collection_panel_link(&format!("/blog/{ID}")), None);
        let error = CollectionPanelId::parse("5f1a-2b3c").unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"collection panel id "5f1a-2b3c" must be exactly 24 letters or digits"#
        );
    }

    #[test]
    fn comment_links_use_the_comment_id_or_the_thread() {
        assert_eq!(
            comment_link("https://example.com/", "/blog/post", "abc", None),
            "https://example.com/blog/post#comment-abc"
        );
        assert_eq!(
            comment_link("https://example.com", "blog/post", "abc", Some("mysite")),
            "https://example.com/blog/post#disqus_thread"
        );
        assert_eq!(
            comment_link("https://example.com", "/blog/post", "abc", Some(" ")),
            "https://example.com/blog/post#comment-abc"
        );
    }
}
