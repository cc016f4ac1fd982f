//! Two-step verification from the owner area (`/config/`): `POST /config/second-factor`
//! makes a secret and shows it as a QR code and as text, `.../confirm` turns it on after a
//! correct code, `.../off` turns it off after a current code or the password. Each form repeats
//! the session's CSRF token, and every code or password typed counts against the sign-in
//! limits (429 with `Retry-After`).
//!
//! The QR code is drawn on the server as SVG by the `qrcode` crate, the most used Rust QR
//! encoder, so the owner area ships no QR script and the secret never leaves the page for a
//! third-party service.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::RETRY_AFTER;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use base64::Engine as _;
use vitrine_core::owners::{OwnerViewer, SecondFactorError, SecondFactorProof, TotpSecret};

use super::config_page::{Screen, acting_owner, client, field, first_screen, form, unavailable};
use super::markup::hidden_csrf;
use crate::AppState;
use crate::shared::owner_access::now;
use crate::shared::request_parts::escape_html as escape;

pub(super) const START_PATH: &str = "/config/second-factor";
pub(super) const CONFIRM_PATH: &str = "/config/second-factor/confirm";
pub(super) const OFF_PATH: &str = "/config/second-factor/off";

/// The name an authenticator app lists the account under when the site has no title.
const DEFAULT_ISSUER: &str = "Vitrine";

/// The answer to a refused attempt: the first screen again with why, 429 with `Retry-After`
/// past the limits.
async fn refused(state: &AppState, viewer: &OwnerViewer, error: SecondFactorError) -> Response {
    let status = match &error {
        SecondFactorError::Unavailable(cause) => return unavailable(cause),
        SecondFactorError::UnknownOwner => return Redirect::to("/config/").into_response(),
        SecondFactorError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
        SecondFactorError::InvalidCode | SecondFactorError::InvalidProof => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        _ => StatusCode::CONFLICT,
    };
    let mut response = first_screen(
        state,
        viewer,
        &Screen::after_action(None, Some(&error.to_string())),
        status,
    )
    .await;
    if let SecondFactorError::RateLimited(after) = error
        && let Ok(value) = HeaderValue::from_str(&after.0.to_string())
    {
        response.headers_mut().insert(RETRY_AFTER, value);
    }
    response
}

/// `POST /config/second-factor`: a new pending secret, shown on the first screen.
pub(super) async fn start(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    match state.owners.start_second_factor(&viewer.owner.id).await {
        Ok(_) => Redirect::to("/config/#owner-second-factor").into_response(),
        Err(error) => refused(&state, &viewer, error).await,
    }
}

/// `POST /config/second-factor/confirm`: turns the pending secret on with one of its codes.
pub(super) async fn confirm(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let code = field(&fields, "code").unwrap_or_default();
    match state
        .owners
        .confirm_second_factor(&viewer.owner.id, code, &client(&parts, &state), now())
        .await
    {
        Ok(_) => Redirect::to("/config/#owner-second-factor").into_response(),
        Err(error) => refused(&state, &viewer, error).await,
    }
}

/// `POST /config/second-factor/off`: turns the second factor off after a current code or,
/// when no code is given, the password.
pub(super) async fn turn_off(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = form(&body);
    let viewer = match acting_owner(&state, &parts.headers, &fields).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let code = field(&fields, "code").map(str::trim).unwrap_or_default();
    let proof = if code.is_empty() {
        SecondFactorProof::Password(field(&fields, "password").unwrap_or_default())
    } else {
        SecondFactorProof::Code(code)
    };
    match state
        .owners
        .turn_off_second_factor(&viewer.owner.id, proof, &client(&parts, &state), now())
        .await
    {
        Ok(_) => Redirect::to("/config/#owner-second-factor").into_response(),
        Err(error) => refused(&state, &viewer, error).await,
    }
}

/// The issuer an authenticator app shows beside the account: the site's title.
pub(super) async fn issuer(state: &AppState) -> String {
    state
        .pages
        .profile()
        .await
        .ok()
        .map(|profile| profile.settings.site_title.trim().to_owned())
        .filter(|title| !title.is_empty())
        .unwrap_or_else(|| DEFAULT_ISSUER.to_owned())
}

/// The `otpauth://` address as an SVG QR code in a `data:` image (the owner area's policy
/// allows those, and no inline script or style is needed).
fn qr_image(uri: &str) -> Option<String> {
    let code = qrcode::QrCode::new(uri.as_bytes()).ok()?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Some(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    ))
}

/// The two-step verification section of the first screen: its state and the one form that
/// changes it.
pub(super) fn section(viewer: &OwnerViewer, issuer: &str) -> String {
    let owner = &viewer.owner;
    let csrf = hidden_csrf(viewer);
    let body = match (&owner.totp, &owner.totp_pending) {
        (Some(_), _) => format!(
            "<p>On: signing in asks for a code from your authenticator app after your password.</p>\
             <form method=\"post\" action=\"{OFF_PATH}\">{csrf}\
             <p><label for=\"owner-totp-off-code\">Current code</label> \
             <input id=\"owner-totp-off-code\" name=\"code\" inputmode=\"numeric\" \
             autocomplete=\"one-time-code\" pattern=\"[0-9 ]*\"></p>\
             <p><label for=\"owner-totp-off-password\">Or your password</label> \
             <input id=\"owner-totp-off-password\" name=\"password\" type=\"password\" \
             autocomplete=\"current-password\"></p>\
             <p><button type=\"submit\">Turn off two-step verification</button></p></form>"
        ),
        (None, Some(pending)) => pending_markup(pending, viewer, issuer, &csrf),
        (None, None) => format!(
            "<p>Off. Turn it on to be asked for a six-digit code from an authenticator app \
             after your password.</p>\
             <form method=\"post\" action=\"{START_PATH}\">{csrf}\
             <p><button type=\"submit\">Turn on two-step verification</button></p></form>"
        ),
    };
    format!(
        "<section aria-labelledby=\"owner-second-factor\">\
         <h2 id=\"owner-second-factor\">Two-step verification</h2>{body}</section>"
    )
}

fn pending_markup(pending: &TotpSecret, viewer: &OwnerViewer, issuer: &str, csrf: &str) -> String {
    let key = pending.base32();
    let uri = pending.otpauth_uri(issuer, &viewer.owner.email);
    let image = qr_image(&uri)
        .map(|source| {
            format!(
                "<p><img class=\"owner-totp-qr\" src=\"{source}\" width=\"200\" height=\"200\" \
                 alt=\"QR code for your authenticator app; the same key is written below\"></p>"
            )
        })
        .unwrap_or_default();
    format!(
        "<p>Scan this QR code with your authenticator app, or type the key into it, then enter \
         the six-digit code it shows. Two-step verification is on only once the code is \
         accepted.</p>{image}\
         <p>Key: <code class=\"owner-totp-secret\">{key}</code></p>\
         <form method=\"post\" action=\"{CONFIRM_PATH}\">{csrf}\
         <p><label for=\"owner-totp-confirm\">Six-digit code</label> \
         <input id=\"owner-totp-confirm\" name=\"code\" inputmode=\"numeric\" \
         autocomplete=\"one-time-code\" pattern=\"[0-9 ]*\" required></p>\
         <p><button type=\"submit\">Turn on</button></p></form>",
        key = escape(&key),
    )
}

#[cfg(test)]
mod tests {
    use super::qr_image;

    #[test]
    fn the_qr_code_is_an_svg_data_image() {
        let image = qr_image("otpauth://totp/Shop:ada%40example.com?secret=ABC").unwrap();
        let encoded = image.strip_prefix("data:image/svg+xml;base64,").unwrap();
        use base64::Engine as _;
        let svg = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        assert!(svg.contains("<path"), "{svg}");
    }
}
