//! The search page, `GET /search?q=` (page type 102): the site's chrome around a search form
//! that works without JavaScript and the published pages and items that answer the query.
//! An empty query shows the form alone; one longer than the core allows gets the form back
//! with the reason (400), the text kept. A search that is made fires the Search conversion
//! for a visitor who consented to marketing. The answer is never cached: it echoes the query.

use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::enums::PageType;
use vitrine_core::search::SearchQuery;

use crate::AppState;
use crate::render::commerce_pages::CommerceMain;
use crate::render::search_page::SearchMain;
use crate::shared::conversion_events::searched;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::{respond, unavailable};

const PATH: &str = "/search";
const TITLE: &str = "Search";

pub(crate) fn routes() -> Routes {
    Routes::new().route(PATH, get(show))
}

/// The `q` of a query string, decoded; empty when there is none.
fn typed_query(raw: Option<&str>) -> String {
    url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
        .find(|(name, _)| name == "q")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

async fn page(state: &AppState, status: StatusCode, main: SearchMain) -> Response {
    let main = CommerceMain::Search(Box::new(main));
    respond(state, PageType::Search, PATH, TITLE, status, &main).await
}

async fn show(
    State(state): State<AppState>,
    method: Method,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Response {
    let typed = typed_query(raw.as_deref());
    let query = match SearchQuery::parse(&typed) {
        Ok(query) => query,
        Err(error) => {
            let main = SearchMain::form(&typed, Some(error.message()));
            return page(&state, StatusCode::BAD_REQUEST, main).await;
        }
    };
    if query.is_empty() {
        return page(&state, StatusCode::OK, SearchMain::form(&typed, None)).await;
    }
    // A member also finds their area's pages, and a browser that entered a page's password
    // that page; the answer is never cached, so no one else sees those results.
    let viewer = crate::shared::viewer::page_viewer(&state, &headers).await;
    let results = match state.pages.search(&query, &viewer).await {
        Ok(results) => results,
        Err(error) => {
            tracing::error!(%error, "searching the site failed");
            return unavailable(&state);
        }
    };
    if method == Method::GET && !crate::pages::published::is_prefetch(&headers) {
        let encoded: String = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("q", query.text())
            .finish();
        let event = searched(&state, &query, &format!("{PATH}?{encoded}"));
        crate::shared::conversions::fire(&state, &headers, event).await;
    }
    let main = SearchMain::answered(query.text(), results);
    page(&state, StatusCode::OK, main).await
}
