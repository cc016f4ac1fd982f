//! URLs on rendered pages: which owner-supplied links may become an `href`, and absolute URLs
//! for canonical and Open Graph tags.

use vitrine_core::links::{self, LinkKind};

/// What an unusable link renders as: a link to nowhere rather than a dangerous one.
pub(crate) const UNSAFE_HREF: &str = "#";

/// The `href` for a link taken from site content. Site paths, in-page anchors, well-formed
/// http(s) addresses, `mailto:` and `tel:` links (as the core's link classifier of spec 000 s5
/// recognises them) pass; anything else (`javascript:`, `data:`, protocol-relative `//` hosts)
/// becomes [`UNSAFE_HREF`], because content is owner-authored and owners' accounts can be
/// compromised.
pub(crate) fn safe_href(raw: &str) -> &str {
    let href = raw.trim();
    if is_allowed_href(href) {
        href
    } else {
        UNSAFE_HREF
    }
}

fn is_allowed_href(href: &str) -> bool {
    // Browsers read `/\host` like `//host`, which the classifier counts as a site path.
    if href.starts_with("/\\") || href.chars().any(char::is_control) {
        return false;
    }
    matches!(
        links::classify(href),
        LinkKind::Anchor
            | LinkKind::InternalPath
            | LinkKind::Web
            | LinkKind::Mailto
            | LinkKind::Tel
    )
}

/// The `src` of an image: only site paths and http(s) URLs. `None` leaves the image out.
pub(crate) fn safe_src(raw: &str) -> Option<&str> {
    let src = raw.trim();
    let allowed = is_allowed_href(src)
        && (src.starts_with('/') || src.to_ascii_lowercase().starts_with("http"));
    allowed.then_some(src)
}

/// Whether a link leaves the site, so that it can be marked as such.
pub(crate) fn is_external(href: &str) -> bool {
    let lower = href.to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// `path` made absolute against the public origin; absolute URLs pass unchanged.
pub(crate) fn absolute_url(base_url: &str, path: &str) -> String {
    if is_external(path) {
        return path.to_owned();
    }
    let base = base_url.trim_end_matches('/');
    if path.starts_with('/') {
        format!("{base}{path}")
    } else {
        format!("{base}/{path}")
    }
}

/// The OpenStreetMap page for a map block: the marker as `mlat`/`mlon`, and the map's own
/// centre and zoom in the fragment, which is how openstreetmap.org positions its view.
pub(crate) fn openstreetmap_url(
    marker: (f64, f64),
    centre: (f64, f64),
    zoom: u8,
) -> Option<String> {
    let valid = |(lat, lng): (f64, f64)| {
        lat.is_finite()
            && lng.is_finite()
            && (-90.0..=90.0).contains(&lat)
            && (-180.0..=180.0).contains(&lng)
    };
    if !valid(marker) || !valid(centre) {
        return None;
    }
    // openstreetmap.org shows zoom levels 0 to 19.
    let zoom = zoom.min(19);
    Some(format!(
        "https://www.openstreetmap.org/?mlat={}&mlon={}#map={zoom}/{}/{}",
        coordinate(marker.0),
        coordinate(marker.1),
        coordinate(centre.0),
        coordinate(centre.1),
    ))
}

/// Six decimals (about 10 cm) is more precision than a map link needs; trailing zeros go.
fn coordinate(value: f64) -> String {
    vitrine_core::map_tiles::coordinate_text(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_links_are_limited_to_safe_schemes() {
        for allowed in [
            "/shop",
            "/",
            "#top",
            "https://example.com/a?b=c",
            "HTTP://example.com",
            "mailto:hello@example.com",
            "tel:+1-555-0100",
            "/shop?page=2#top",
        ] {
            assert_eq!(safe_href(allowed), allowed, "{allowed}");
        }
        for refused in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "data:text/html,<b>",
            "//evil.example",
            "/\\evil.example",
            "vbscript:x",
            "https:",
            "shop",
            "",
            "/a b",
            "tel:12",
        ] {
            assert_eq!(safe_href(refused), UNSAFE_HREF, "{refused}");
        }
    }

    #[test]
    fn image_sources_are_site_paths_or_web_urls() {
        assert_eq!(safe_src("/media/a.png"), Some("/media/a.png"));
        assert_eq!(
            safe_src("https://cdn.example/a.png"),
            Some("https://cdn.example/a.png")
        );
        assert_eq!(safe_src("mailto:a@b.c"), None);
        assert_eq!(safe_src("javascript:x"), None);
    }

    #[test]
    fn absolute_urls_join_the_origin_once() {
        assert_eq!(
            absolute_url("https://shop.example/", "/a"),
            "https://shop.example/a"
        );
        assert_eq!(
            absolute_url("https://shop.example", "a"),
            "https://shop.example/a"
        );
        assert_eq!(
            absolute_url("https://shop.example", "https://cdn.example/x"),
            "https://cdn.example/x"
        );
    }

    #[test]
    fn map_links_point_at_openstreetmap() {
        assert_eq!(
            openstreetmap_url((40.7128, -74.006), (40.7, -74.0), 12).as_deref(),
            Some("https://www.openstreetmap.org/?mlat=40.7128&mlon=-74.006#map=12/40.7/-74")
        );
        assert_eq!(openstreetmap_url((f64::NAN, 0.0), (0.0, 0.0), 12), None);
        assert_eq!(openstreetmap_url((95.0, 0.0), (0.0, 0.0), 12), None);
        assert!(
            openstreetmap_url((0.0, 0.0), (0.0, 0.0), 30)
                .unwrap()
                .contains("#map=19/0/0")
        );
    }
}
