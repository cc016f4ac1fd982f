//! Security headers sent with every response. The policy allows only what Vitrine's own pages
//! load: scripts, styles, fonts and data from this origin, and images from here or `data:`.
//! Served over TLS, `Strict-Transport-Security` tells browsers to come back over HTTPS only.

use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, STRICT_TRANSPORT_SECURITY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue};
use axum::response::Response;

/// Pages carry no inline script or style: the page context is inert JSON and islands load
/// as modules from `/assets/`, so a strict policy costs nothing and blocks injected markup.
/// The only frames from elsewhere are the two video providers' privacy-enhanced players, which
/// a page loads when a visitor presses play on a video.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     frame-src https://www.youtube-nocookie.com https://player.vimeo.com; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

/// Powerful browser features no Vitrine page uses, switched off for the page and anything it
/// embeds, so injected or third-party script cannot ask the visitor for them.
pub const PERMISSIONS_POLICY_VALUE: &str = "accelerometer=(), camera=(), geolocation=(), \
     gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()";

/// One year, without `includeSubDomains`: the owner's other hosts on the same domain may not
/// all speak HTTPS, and Vitrine cannot know.
pub const STRICT_TRANSPORT_SECURITY_VALUE: &str = "max-age=31536000";

/// The headers every response carries unless its handler chose its own, as constants: a
/// `HeaderValue::from_static` called per response checks every byte of these long values
/// again, which cost more than all the rest of this layer. Evaluated at compile time, the
/// check runs once, in the compiler.
const DEFAULTS: [(HeaderName, HeaderValue); 5] = [
    (
        HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static(PERMISSIONS_POLICY_VALUE),
    ),
    (
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY_VALUE),
    ),
    (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    (
        REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    ),
    // Older browsers ignore frame-ancestors; this says the same to them.
    (X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN")),
];

/// `Strict-Transport-Security`, checked at compile time like [`DEFAULTS`].
const STRICT_TRANSPORT_SECURITY_HEADER: HeaderValue =
    HeaderValue::from_static(STRICT_TRANSPORT_SECURITY_VALUE);

/// Adds the headers to a response, keeping any a handler chose itself; `tls` says whether
/// the site is served over TLS, where HSTS belongs (over plain HTTP browsers ignore it).
pub fn add<B>(tls: bool, mut response: Response<B>) -> Response<B> {
    let headers = response.headers_mut();
    if tls {
        headers
            .entry(STRICT_TRANSPORT_SECURITY)
            .or_insert(STRICT_TRANSPORT_SECURITY_HEADER);
    }
    for (name, value) in DEFAULTS {
        headers.entry(name).or_insert(value);
    }
    response
}
