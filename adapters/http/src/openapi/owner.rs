//! Descriptions of the owner's calls that shape the published site (001 s7): the header and
//! footer, and the site's languages. All are behind the owner token.

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::ToSchema;

use super::schemas::ErrorAnswer;

/// The site's header and footer: owner HTML, cleaned by the allow-list sanitiser (no scripts,
/// event handlers, styles or `javascript:` links), at most 16,384 bytes each.
#[derive(ToSchema, Deserialize)]
pub struct HeaderFooterBody {
    /// Shown at the top of every page, above the logo and menu; empty shows nothing.
    pub header: String,
    /// Shown at the bottom of every page, above "Powered by Vitrine"; empty shows nothing.
    pub footer: String,
}

/// The data holding the header and footer pages show now: the owner's, or, before the owner
/// set them, no header and the site's footer text.
#[utoipa::path(
    get,
    path = "/api/site-header-footer",
    tag = "owner",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "The header and footer", body = HeaderFooterBody),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn show_header_footer() {}

/// Replaces the header and footer of every page, at once.
#[utoipa::path(
    put,
    path = "/api/site-header-footer",
    tag = "owner",
    security(("ownerToken" = [])),
    request_body(content = HeaderFooterBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The header and footer as stored, cleaned", body = HeaderFooterBody),
        (status = 400, description = "Not `{header, footer}`, or one of them is larger than 16,384 bytes", body = ErrorAnswer),
        (status = 404, description = "No owner token is configured, or the request does not carry it", body = ErrorAnswer),
    ),
)]
fn replace_header_footer() {}
