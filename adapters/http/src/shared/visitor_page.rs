//! Serving a commerce page (cart, checkout, order): the page service gives the site's chrome
//! and page context for the page type, the renderer puts the shopper's content inside, and
//! the answer is never stored by a cache, since it shows one shopper's cart or order.

use std::collections::BTreeSet;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::enums::PageType;
use vitrine_core::pages::Viewer;

use crate::AppState;
use crate::render::{self, commerce_pages::CommerceMain};

/// The page of `page_type` at `path`, titled `heading`, with `main` inside the site's chrome.
pub(crate) async fn respond(
    state: &AppState,
    page_type: PageType,
    path: &str,
    heading: &str,
    status: StatusCode,
    main: &CommerceMain,
) -> Response {
    respond_to(
        state,
        &Viewer::default(),
        page_type,
        path,
        heading,
        status,
        main,
    )
    .await
}

/// [`respond`] for `viewer`, whose account the page context names.
pub(crate) async fn respond_to(
    state: &AppState,
    viewer: &Viewer,
    page_type: PageType,
    path: &str,
    heading: &str,
    status: StatusCode,
    main: &CommerceMain,
) -> Response {
    let view = match state
        .pages
        .commerce_page(page_type, path, heading, viewer)
        .await
    {
        Ok(view) => view,
        Err(error) => {
            tracing::error!(%error, path, "reading the site for a commerce page failed");
            return unavailable(state);
        }
    };
    let assets = state
        .assets
        .page_assets(&main.islands(), &render::started_modules(&view));
    match render::render_commerce_page(&view, &assets, &state.config.public_base_url, main) {
        Ok(html) => {
            let mut response = (status, html).into_response();
            let headers = response.headers_mut();
            headers.insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            );
            headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(error) => {
            tracing::error!(%error, path, "rendering a commerce page failed");
            unavailable(state)
        }
    }
}

/// The page saying the site cannot be shown right now (503).
pub(crate) fn unavailable(state: &AppState) -> Response {
    let assets = state.assets.page_assets(&BTreeSet::new(), &[]);
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        render::render_unavailable_page(&assets),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
