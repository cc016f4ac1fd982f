//! What the site-user pages share: the posted form's fields, the local address to return
//! to, the signed-in viewer of a page and the check of the XSRF token a signed-in user's
//! forms carry, and answering with a people page inside the site's chrome.

use axum::http::header::{CACHE_CONTROL, LOCATION};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use vitrine_core::enums::PageType;
use vitrine_core::people::Viewer;

use crate::AppState;
use crate::render::commerce_pages::CommerceMain;
use crate::render::people_pages::PeopleMain;
use crate::shared::viewer::viewer;

/// The fields of a form posted as `application/x-www-form-urlencoded`.
pub(super) struct Posted(Vec<(String, String)>);

impl Posted {
    pub(super) fn parse(body: &[u8]) -> Self {
        Self(url::form_urlencoded::parse(body).into_owned().collect())
    }

    /// The first value of `name`, or an empty text.
    pub(super) fn field(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map_or("", |(_, value)| value.as_str())
    }

    /// The local address to go back to, or `fallback` when none or not local.
    pub(super) fn return_to(&self, fallback: &str) -> String {
        local_path(self.field("return"))
            .unwrap_or(fallback)
            .to_owned()
    }
}

/// `path` when it is an address on this site (so a link cannot send a visitor elsewhere).
pub(super) fn local_path(path: &str) -> Option<&str> {
    (path.starts_with('/') && !path.starts_with("//") && !path.contains('\\')).then_some(path)
}

/// The `return` query parameter of a page's address, when local.
pub(super) fn return_query(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .find(|(key, _)| key == "return")
        .and_then(|(_, value)| local_path(&value).map(str::to_owned))
}

/// `key` of a page's query string.
pub(super) fn query_value(query: Option<&str>, key: &str) -> String {
    url::form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

/// `path` with `?return=` when there is somewhere to return to.
pub(super) fn with_return(path: &str, return_to: Option<&str>) -> String {
    match return_to {
        Some(back) => {
            let back: String = url::form_urlencoded::byte_serialize(back.as_bytes()).collect();
            format!("{path}?return={back}")
        }
        None => path.to_owned(),
    }
}

/// The signed-in viewer of a page, or the answer to give instead (the store is away).
pub(super) async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Viewer>, Response> {
    viewer(state, headers).await.map_err(|error| {
        tracing::error!(%error, "reading a site-user session failed");
        crate::shared::visitor_page::unavailable(state)
    })
}

/// Whether a signed-in user's posted form repeats the session's XSRF token.
pub(super) fn carries_xsrf(viewer: &Viewer, posted: &Posted) -> bool {
    crate::shared::request_parts::same_secret(
        posted.field("xsrf").as_bytes(),
        viewer.session.xsrf_token.as_bytes(),
    )
}

/// The page viewer of the core's page service for a site user.
pub(super) async fn page_viewer(
    state: &AppState,
    viewer: Option<&Viewer>,
) -> vitrine_core::pages::Viewer {
    match viewer {
        Some(viewer) => crate::shared::viewer::page_viewer_of(state, viewer).await,
        None => vitrine_core::pages::Viewer::default(),
    }
}

/// A page of one form (or message) at `path` headed `heading`, for a visitor not signed in.
pub(super) async fn form_page(
    state: &AppState,
    (path, heading): (&str, &str),
    status: StatusCode,
    form: crate::render::people_pages::FormMain,
) -> Response {
    page(state, None, (path, heading), status, PeopleMain::Form(form)).await
}

/// The site's member areas, or the answer to give when the site cannot be read.
pub(super) async fn member_areas(
    state: &AppState,
) -> Result<Vec<vitrine_core::site::MemberArea>, Response> {
    match state.pages.profile().await {
        Ok(profile) => Ok(profile.settings.member_areas),
        Err(error) => {
            tracing::error!(%error, "reading the site's member areas failed");
            Err(crate::shared::visitor_page::unavailable(state))
        }
    }
}

/// A people page at `path` headed `heading`, answered with `status`.
pub(super) async fn page(
    state: &AppState,
    viewer: Option<&Viewer>,
    (path, heading): (&str, &str),
    status: StatusCode,
    main: PeopleMain,
) -> Response {
    page_of_type(state, viewer, PageType::Page, (path, heading), status, main).await
}

pub(super) async fn page_of_type(
    state: &AppState,
    viewer: Option<&Viewer>,
    page_type: PageType,
    (path, heading): (&str, &str),
    status: StatusCode,
    main: PeopleMain,
) -> Response {
    let main = CommerceMain::People(Box::new(main));
    let viewer = page_viewer(state, viewer).await;
    let mut response = crate::shared::visitor_page::respond_to(
        state, &viewer, page_type, path, heading, status, &main,
    )
    .await;
    // Every people page shows one visitor's own state.
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// 303 to `location`: after a form post, a reload does not post again.
pub(super) fn see_other(location: &str) -> Response {
    let mut response = (StatusCode::SEE_OTHER, [(CACHE_CONTROL, "no-store")]).into_response();
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(LOCATION, value);
    }
    response
}
