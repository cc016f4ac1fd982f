//! The first path segments of the server's own routes: media, built assets, the API, the cart
//! and checkout, accounts, search, the owner area and the site's fixed files. They are served
//! in one place for every language, so a link to one keeps no language prefix, and no
//! translation may take one as its prefix.
//!
//! This list is the one source of truth: the HTTP adapter checks, when it builds its router
//! and in its tests, that the first segments of the routes it serves are exactly these (the
//! core cannot read the router, which lives in an adapter).

/// Every first path segment a route of the server starts with, besides the published pages.
pub const SERVER_ROUTE_SEGMENTS: &[&str] = &[
    "account",
    "api",
    "assets",
    "cart",
    "checkout",
    "commerce",
    "config",
    "favicon.ico",
    "favicon.svg",
    "form-submission",
    "gift-cards",
    "healthz",
    "media",
    "newsletter",
    "page-password",
    "plugin-styles",
    "robots.txt",
    "search",
    "sitemap.xml",
];

/// Whether `segment` (a path's first segment, without slashes) is one of the server's routes.
pub fn is_server_route_segment(segment: &str) -> bool {
    SERVER_ROUTE_SEGMENTS.contains(&segment)
}

/// The first segment of an absolute path (`/cart/form?line=1` gives `cart`, `/` gives ``).
pub fn first_segment(path: &str) -> &str {
    let path = path.strip_prefix('/').unwrap_or(path);
    path.split(['/', '?', '#']).next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_has_no_repeats() {
        assert!(
            SERVER_ROUTE_SEGMENTS
                .windows(2)
                .all(|pair| pair[0] < pair[1])
        );
    }

    #[test]
    fn first_segments_stop_at_a_slash_a_query_or_a_fragment() {
        assert_eq!(first_segment("/cart/form?line=1"), "cart");
        assert_eq!(first_segment("/search?q=mug"), "search");
        assert_eq!(first_segment("/about#team"), "about");
        assert_eq!(first_segment("/"), "");
        assert_eq!(first_segment("/{*path}"), "{*path}");
    }
}
