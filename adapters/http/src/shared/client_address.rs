//! Who is calling, by network address: the peer of the TCP connection, or, behind proxies the
//! owner declared trusted, the address those proxies put in `X-Forwarded-For`. Rate limits
//! key on it beside the crumb (which a client can drop and renew at will).
//!
//! Decision: `X-Forwarded-For` is believed only as far as the configured number of trusted
//! proxies (`HttpConfig::trusted_proxies`, `VITRINE_TRUSTED_PROXIES`). Each proxy appends the
//! address it received the request from, so with N trusted proxies the client is the N-th
//! entry from the right; anything further left was written by the client itself and could be
//! anything. With none trusted (the default) the header is ignored.

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
use axum::http::request::Parts;

/// The calling client's address, when the connection tells it (router tests driven without a
/// socket have none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddress(pub Option<IpAddr>);

impl ClientAddress {
    /// Reads the address of the request in `parts`, trusting `trusted_proxies` hops of
    /// `X-Forwarded-For`.
    pub(crate) fn of(parts: &Parts, trusted_proxies: u8) -> Self {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip());
        Self(forwarded_client(&parts.headers, trusted_proxies).or(peer))
    }

    /// The address as text (empty when unknown), for the census's cookieless visitor hash.
    pub(crate) fn text(&self) -> String {
        self.0
            .map(|address| address.to_string())
            .unwrap_or_default()
    }

    /// The address as a rate-limit bucket name part.
    pub(crate) fn bucket(&self) -> Option<String> {
        self.0.map(|address| match address {
            // One IPv6 client usually holds a whole /64, so it counts as one address.
            IpAddr::V6(v6) => {
                let [a, b, c, d, ..] = v6.segments();
                format!("{a:x}:{b:x}:{c:x}:{d:x}::/64")
            }
            IpAddr::V4(v4) => v4.to_string(),
        })
    }
}

impl axum::extract::FromRequestParts<crate::AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &crate::AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self::of(parts, state.config.trusted_proxies))
    }
}

/// The client as the trusted proxies report it: the `trusted`-th address from the right of
/// every `X-Forwarded-For` header together; none when no proxy is trusted, or when the chain
/// is shorter than the proxies (the request did not come through them all) or unreadable.
fn forwarded_client(headers: &HeaderMap, trusted: u8) -> Option<IpAddr> {
    if trusted == 0 {
        return None;
    }
    let chain: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect();
    let index = chain.len().checked_sub(usize::from(trusted))?;
    chain[index].parse().ok()
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderValue, Request};

    use super::*;

    fn parts(forwarded: &[&'static str], peer: Option<&str>) -> Parts {
        let mut request = Request::new(());
        for value in forwarded {
            request
                .headers_mut()
                .append("x-forwarded-for", HeaderValue::from_static(value));
        }
        if let Some(peer) = peer {
            request
                .extensions_mut()
                .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
        }
        request.into_parts().0
    }

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        let request = parts(&["203.0.113.9"], Some("198.51.100.1:5000"));
        assert_eq!(
            ClientAddress::of(&request, 0).0,
            Some("198.51.100.1".parse().unwrap())
        );
        assert_eq!(ClientAddress::of(&parts(&[], None), 0).0, None);
    }

    #[test]
    fn behind_trusted_proxies_the_address_they_saw_counts_not_what_the_client_wrote() {
        // The client wrote 1.1.1.1 itself; the one proxy appended the address it saw.
        let request = parts(&["1.1.1.1, 203.0.113.9"], Some("10.0.0.2:5000"));
        assert_eq!(
            ClientAddress::of(&request, 1).0,
            Some("203.0.113.9".parse().unwrap())
        );
        // Two proxies, the second adding its own header line.
        let request = parts(&["1.1.1.1, 203.0.113.9", "10.0.0.5"], Some("10.0.0.2:5000"));
        assert_eq!(
            ClientAddress::of(&request, 2).0,
            Some("203.0.113.9".parse().unwrap())
        );
        // A chain shorter than the proxies, or garbage, falls back to the peer.
        let request = parts(&["not-an-address"], Some("10.0.0.2:5000"));
        assert_eq!(
            ClientAddress::of(&request, 1).0,
            Some("10.0.0.2".parse().unwrap())
        );
        assert_eq!(
            ClientAddress::of(&parts(&[], Some("10.0.0.2:1")), 2).0,
            Some("10.0.0.2".parse().unwrap())
        );
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64_prefix() {
        let first = ClientAddress(Some("2001:db8:1:2:aaaa::1".parse().unwrap()));
        let second = ClientAddress(Some("2001:db8:1:2:bbbb::9".parse().unwrap()));
        assert_eq!(first.bucket(), second.bucket());
        assert_eq!(first.bucket().as_deref(), Some("2001:db8:1:2::/64"));
        assert_eq!(ClientAddress(None).bucket(), None);
    }
}
