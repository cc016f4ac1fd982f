//! Security headers sent with every response. The policy allows only what Vitrine's own pages
//! load: scripts, styles, fonts and data from this origin, and images from here or `data:`.

use axum::http::HeaderValue;
use axum::http::header::{
    CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::response::Response;

/// Pages carry no inline script or style: the page context is inert JSON and islands load
/// as modules from `/assets/`, so a strict policy costs nothing and blocks injected markup.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

/// Adds the headers to a response, keeping any a handler chose itself.
pub async fn add(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let defaults = [
        (CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (REFERRER_POLICY, "strict-origin-when-cross-origin"),
        // Older browsers ignore frame-ancestors; this says the same to them.
        (X_FRAME_OPTIONS, "SAMEORIGIN"),
    ];
    for (name, value) in defaults {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}
