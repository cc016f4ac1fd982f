//! Descriptions of the owner's calls from the live site (000 s2, s3, s7). A signed-in owner's
//! browser holds the session cookie (`__Host-owner` over TLS, `owner` over plain HTTP); its
//! state-changing calls repeat the session's CSRF token in `X-Owner-CSRF-Token`.

#![allow(dead_code)]

use utoipa::ToSchema;

use super::schemas::ErrorAnswer;

#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct OwnerContext {
    /// `{"id"}` of the signed-in account; `null` for a visitor.
    pub authenticated_account: Option<Object>,
    /// The account's roles by name with their numeric codes (001 s3), e.g. `{"admin": 1}`.
    pub website_roles: Object,
    /// The permission codes the roles hold (001 s3).
    pub permissions: Vec<u16>,
    pub show_announcement_bar: bool,
    /// Owners and editors get the announcement bar, the preview-only notice and the
    /// overlays manager; viewers are treated like visitors.
    pub owner_extras: bool,
    /// Repeated as `X-Owner-CSRF-Token` by the page's owner calls.
    pub csrf_token: Option<String>,
    /// `/config/?frameUrl=...`, where Escape goes.
    pub config_url: String,
    /// Set when the page must send its viewer to `/config/` now.
    pub redirect_to: Option<String>,
    /// The table-reservation block's alert for a signed-in owner (000 s6).
    pub reservation_preview_alert: Option<String>,
}

/// Any JSON object.
#[derive(ToSchema)]
pub struct Object {}

/// The signed-in owner's part of the page context, asked for after load so pages stay
/// cacheable; for a visitor, `authenticatedAccount` is `null`.
#[utoipa::path(
    get,
    path = "/api/owner/context",
    tag = "owner",
    params(
        ("path" = Option<String>, Query, description = "The live page's path and query"),
        ("inFrame" = Option<bool>, Query, description = "The page is inside a frame"),
        ("noredirect" = Option<bool>, Query, description = "The page was opened with `noredirect` in this browser session"),
    ),
    responses(
        (status = 200, description = "The owner's context", body = OwnerContext),
        (status = 400, description = "`inFrame` or `noredirect` is neither `true` nor `false`", body = ErrorAnswer),
    ),
)]
fn owner_context() {}

/// Logs the signed-in owner out (000 s7); a no-op without a signed-in account. The page then
/// goes to the site root or the preview frame's page with `logout=true`.
#[utoipa::path(
    post,
    path = "/api/auth/Logout",
    tag = "owner",
    responses(
        (status = 204, description = "Logged out, or nobody was signed in"),
        (status = 403, description = "`X-Owner-CSRF-Token` is missing or wrong", body = ErrorAnswer),
    ),
)]
fn logout() {}

/// The owner dashboard's figures for a range of days against the range before it: the
/// analytics report of `vitrine analytics report` for the range (`report`), the range's totals
/// (`totals`), the previous range's (`previousTotals`) and the change in percent (`changes`).
/// Read by the admin, reporting and viewer roles (a key also needs the `config` scope).
#[utoipa::path(
    get,
    path = "/api/owner/dashboard",
    tag = "owner",
    params(
        ("range" = Option<String>, Query, description = "`today`, `7d` (the default), `30d` or `custom`"),
        ("from" = Option<String>, Query, description = "With `custom`: the first day, YYYY-MM-DD (UTC)"),
        ("to" = Option<String>, Query, description = "With `custom`: the last day, YYYY-MM-DD (UTC), at most 366 days after `from`"),
    ),
    responses(
        (status = 200, description = "The dashboard's figures", body = Object),
        (status = 400, description = "The range does not parse, ends before it starts or is too long", body = ErrorAnswer),
        (status = 401, description = "No owner session or key", body = ErrorAnswer),
        (status = 403, description = "The role or key may not read the analytics", body = ErrorAnswer),
    ),
)]
fn dashboard() {}
