//! The route table and the layers around it. Outermost first: request id and tracing, security
//! headers (so the concurrency limit's and the time-out's 503s carry them too), the concurrency
//! limit and the time-out, then one middleware for the admission checks (the owner-token
//! throttle, the rate limits, the crumb check, the origin check), the clearing of tracking
//! cookies a visitor refused and the compression of answers not already compressed, then the
//! routes.
//!
//! The layers are one stack of services around the whole router, with one `Router` outside
//! it, rather than layers on each route (which is what `Router::layer` does) or routers nested
//! in routers: each route, and each router's fallback, boxes the future of everything inside
//! it and clones its stack of layers on every request, so each level costs every request.

use std::collections::BTreeSet;

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use tower::ServiceBuilder;
use vitrine_core::languages::{SERVER_ROUTE_SEGMENTS, first_segment, is_server_route_segment};

use crate::pages::shortcut::ShortcutLayer;
use crate::pages::{favicon, media, published, seo};
use crate::shared::route_table::Routes;
use crate::shared::{admission, encoding, observability, request_limits};
use crate::{ApiError, AppState, assets, health};

/// The whole site: published pages, crawler files, media, built assets and the API.
pub fn router(state: AppState) -> Router {
    let tls = state.config.secure_cookies;
    let config = state.config.clone();
    let layers_state = state.clone();
    let served = server_routes();
    debug_assert_eq!(
        unlisted_segments(served.paths()),
        (Vec::<&str>::new(), Vec::<&str>::new()),
        "the router's first path segments and the core's SERVER_ROUTE_SEGMENTS differ"
    );
    let routes = Router::from(served)
        .route("/", get(published::page))
        .route("/{*path}", get(published::page))
        .with_state(state);
    let layered = ServiceBuilder::new()
        .layer(ShortcutLayer::new(layers_state.clone()))
        .layer(observability::instrumentation())
        .map_response(move |response| crate::shared::security_headers::add(tls, response))
        .layer(request_limits::bounds(&config))
        .layer(from_fn_with_state(layers_state, admit))
        .service(routes);
    Router::new().fallback_service(layered)
}

/// Middleware: the request goes on to its route once every admission check lets it (the first
/// refusal answers instead), the route's answer expires the tracking cookies the visitor
/// refused, and whichever answer goes out is compressed as `Accept-Encoding` asks. One
/// middleware for all three, since each layer costs every request.
///
/// Cached pages and assets arrive precompressed and marked so, and pass untouched (their entity
/// tags name those bytes); images are skipped by the compression's default predicate.
/// Everything else (a page's first render, crawler files, the API, per-shopper pages, a
/// refusal) is compressed per response.
async fn admit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let accept_encoding = encoding::AcceptEncoding::of(request.headers());
    let response = match admission::admitted(&state, request).await {
        Ok(request) => crate::privacy::consent::clear_refused_cookies(&state, request, next).await,
        Err(refusal) => refusal,
    };
    accept_encoding.compress(response).await
}

/// Every route of the server besides the published pages: the fixed files, media, built
/// assets, the features' routes and the API's catch-all. Their first path segments are the
/// core's [`SERVER_ROUTE_SEGMENTS`], which decide what links keep no language prefix.
pub fn server_routes() -> Routes {
    Routes::new()
        .route("/healthz", get(health::healthz))
        .route("/sitemap.xml", get(seo::sitemap))
        .route("/robots.txt", get(seo::robots))
        .route("/favicon.svg", get(favicon::favicon))
        .route("/favicon.ico", get(favicon::favicon))
        .route("/media/{*path}", get(media::media))
        .route("/assets/{*path}", get(assets::serve_asset))
        // API routes are added by the features that own them; any other `/api` path answers
        // JSON, which is what the request layer calling it can read.
        .merge(feature_routes())
        .route("/api", any(unknown_api))
        .route("/api/{*rest}", any(unknown_api))
}

/// The first segments of `paths` that [`SERVER_ROUTE_SEGMENTS`] lacks, then the listed
/// segments no path starts with: both empty when the router and the core agree.
pub fn unlisted_segments<'a>(paths: &[&'a str]) -> (Vec<&'a str>, Vec<&'static str>) {
    let served: BTreeSet<&str> = paths.iter().map(|&path| first_segment(path)).collect();
    let unlisted = served
        .iter()
        .copied()
        .filter(|segment| !is_server_route_segment(segment))
        .collect();
    let unserved = SERVER_ROUTE_SEGMENTS
        .iter()
        .copied()
        .filter(|segment| !served.contains(segment))
        .collect();
    (unlisted, unserved)
}

/// Every route the features serve, in one table: the router serves it and the API
/// description's test reads its paths, so an `/api` route cannot be served undescribed.
pub fn feature_routes() -> Routes {
    Routes::new()
        .merge(crate::shared::crumb::routes())
        .merge(crate::plugins::widgets::routes())
        .merge(crate::render::plugin_styles::routes())
        .merge(crate::forms::calls::routes())
        .merge(crate::forms::newsletter_page::routes())
        .merge(crate::privacy::consent::routes())
        .merge(crate::privacy::census::routes())
        .merge(crate::privacy::quick_view::routes())
        .merge(crate::commerce::reviews::routes())
        .merge(crate::commerce::reviews_page::routes())
        .merge(crate::shared::conversions::routes())
        .merge(crate::privacy::events::routes())
        .merge(crate::commerce::cart::routes())
        .merge(crate::commerce::checkout_page::routes())
        .merge(crate::commerce::card_payment::routes())
        .merge(crate::commerce::order_page::routes())
        .merge(crate::commerce::membership_page::routes())
        .merge(crate::commerce::failed_refunds::routes())
        .merge(crate::commerce::order_aftercare::routes())
        .merge(crate::commerce::stripe_webhook::routes())
        .merge(crate::commerce::subscribe_page::routes())
        .merge(crate::commerce::subscription_manage::routes())
        .merge(crate::commerce::donate_page::routes())
        .merge(crate::commerce::donate_card_payment::routes())
        .merge(crate::commerce::gift_card_page::routes())
        .merge(crate::commerce::gift_card_balance::routes())
        .merge(crate::pages::search_page::routes())
        .merge(crate::pages::page_password::routes())
        .merge(crate::people::site_users::routes())
        .merge(crate::owner::header_footer::routes())
        .merge(crate::owner::multilingual::routes())
        .merge(crate::owner::config_page::routes())
        .merge(crate::owner::dashboard::routes())
        .merge(crate::owner::calls::routes())
        .merge(crate::owner::tables::routes())
        .merge(crate::people::pages::routes())
        .merge(crate::people::account_page::routes())
        .merge(crate::people::account_address::routes())
        .merge(crate::people::account_subscriptions::routes())
        .merge(crate::people::member_access::routes())
        .merge(crate::places::calls::routes())
        .merge(crate::maps::static_map::routes())
        .merge(crate::openapi::routes())
}

async fn unknown_api() -> Response {
    ApiError::NotFound.into_response()
}
