//! How a signed-in owner is treated on the live site (000 s2, s6): the automatic redirect to
//! the configuration area and its exceptions, the address Escape opens, and whether the
//! owner's extras (announcement bar, preview-only notice, overlays manager) show.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

use super::permissions::treated_as_visitor;
use crate::enums::ContributorRole;

/// The configuration area's root.
pub const CONFIG_PATH: &str = "/config/";

/// The alert of 000 s6 a signed-in owner sees on a table-reservation block.
pub const RESERVATION_PREVIEW_ALERT: &str =
    "Preview Only: Please log out of your provider account in order to use the reservation block.";

/// Everything the redirect rule of 000 s2 depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RedirectFacts {
    /// The signed-in account's role; `None` for a visitor.
    pub role: Option<ContributorRole>,
    /// The page is served on localhost (a developer's machine).
    pub localhost: bool,
    /// The address carries `noredirect`, now or earlier in this browser session.
    pub noredirect: bool,
    pub developer_mode: bool,
    pub cloneable: bool,
    /// The page is already inside a frame (the preview of `/config/` itself).
    pub in_frame: bool,
}

/// Whether a live page opened outside the editor sends its viewer to `/config/` (000 s2):
/// only a signed-in account that is not viewer-only, and never on localhost, with
/// `noredirect`, on a developer-mode or cloneable site, or inside a frame.
pub fn redirects_to_config(facts: RedirectFacts) -> bool {
    let Some(role) = facts.role else {
        return false;
    };
    !(treated_as_visitor(role)
        || facts.localhost
        || facts.noredirect
        || facts.developer_mode
        || facts.cloneable
        || facts.in_frame)
}

/// Whether `host` (a `Host` header: a name, an IPv4 address or a bracketed IPv6 one, with an
/// optional port) is the local machine.
pub fn is_localhost(host: &str) -> bool {
    let name = if let Some(bracketed) = host.strip_prefix('[') {
        bracketed.split(']').next().unwrap_or_default()
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name == "::1"
        || name
            .parse::<std::net::Ipv4Addr>()
            .is_ok_and(|address| address.is_loopback())
}

/// What `encodeURIComponent` leaves as it is.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// `/config/?frameUrl={encoded path and query}` (000 s2), the address Escape and the
/// redirect open. `frame` is the live page's path and query.
pub fn config_url(frame: &str) -> String {
    format!(
        "{CONFIG_PATH}?frameUrl={}",
        utf8_percent_encode(frame, URI_COMPONENT)
    )
}

/// Whether the signed-in account gets the owner's extras on the live site: owners and
/// editors do; viewers are treated like visitors (000 s1, s6).
pub fn shows_owner_extras(role: Option<ContributorRole>) -> bool {
    role.is_some_and(|role| !treated_as_visitor(role))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admin() -> RedirectFacts {
        RedirectFacts {
            role: Some(ContributorRole::Admin),
            ..RedirectFacts::default()
        }
    }

    #[test]
    fn a_signed_in_admin_is_redirected_unless_an_exception_holds() {
        assert!(redirects_to_config(admin()));
        for exception in [
            RedirectFacts {
                localhost: true,
                ..admin()
            },
            RedirectFacts {
                noredirect: true,
                ..admin()
            },
            RedirectFacts {
                developer_mode: true,
                ..admin()
            },
            RedirectFacts {
                cloneable: true,
                ..admin()
            },
            RedirectFacts {
                in_frame: true,
                ..admin()
            },
            RedirectFacts {
                role: Some(ContributorRole::Viewer),
                ..admin()
            },
            RedirectFacts {
                role: None,
                ..admin()
            },
        ] {
            assert!(!redirects_to_config(exception), "{exception:?}");
        }
    }

    #[test]
    fn localhost_is_recognised_with_and_without_a_port() {
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:18184",
            "[::1]:8080",
            "shop.localhost",
        ] {
            assert!(is_localhost(host), "{host}");
        }
        for host in ["shop.example", "10.0.0.1:80", "localhost.example.com", ""] {
            assert!(!is_localhost(host), "{host}");
        }
    }

    #[test]
    fn the_frame_url_is_encoded_as_a_uri_component() {
        assert_eq!(
            config_url("/shop?q=a b&x=1"),
            "/config/?frameUrl=%2Fshop%3Fq%3Da%20b%26x%3D1"
        );
    }
}
