//! Published pages by URL: the page service resolves the path, the renderer writes the HTML.
//! When either fails the visitor gets the site's error page, and when even the site cannot be
//! read, a standalone "unavailable" page; the cause goes to the logs only.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use vitrine_core::catalog::Sku;
use vitrine_core::pages::{PageContent, PageError, PageView, Viewer};
use vitrine_core::reviews::ProductReviews;

use crate::AppState;
use crate::pages::cache::{EncodedPage, Page, Version, day_of};
use crate::pages::delivery::{self, SHARED_MAX_AGE};
use crate::pages::experiments::{PageVariants, page_variants};
use crate::render::pool::Prerendered;
use crate::render::{self, RenderError, ThirdPartySources};
use crate::shared::client_address::ClientAddress;
use crate::shared::conversion_events::ViewedProduct;

/// How long a client should wait before asking again for a site that cannot be read.
const UNAVAILABLE_RETRY_SECONDS: &str = "60";

/// `GET` (and `HEAD`) of any path no other route claims.
///
/// The request is taken whole, rather than through the `Method`, `HeaderMap` and `Uri`
/// extractors, which clone what they extract: every visit comes here, and it only reads them.
pub(crate) async fn page(State(state): State<AppState>, request: Request) -> Response {
    let (parts, _body) = request.into_parts();
    let address = ClientAddress::of(&parts, state.config.trusted_proxies);
    let Parts {
        method,
        uri,
        headers,
        ..
    } = parts;
    // A blog's address with `?format=rss` is its feed, never a page (nor the page's cache).
    if crate::pages::feed::asks_for_feed(uri.query()) {
        return Box::pin(crate::pages::feed::feed(&state, uri.path(), &headers)).await;
    }
    // Only a real view counts as an experiment's exposure, as it does as a product's view.
    let counted = method == Method::GET && !is_prefetch(&headers);
    let (mut response, viewed) = page_response(&state, &uri, &headers, &address, counted).await;
    if let Some(viewed) = viewed
        && state.ad_pixel.is_some()
        && counted
    {
        // A product page was viewed: ViewContent for a consenting visitor, decided and sent
        // after the page has gone out.
        let event = viewed.event(&state, uri.path());
        let state = state.clone();
        tokio::spawn(async move {
            crate::shared::conversions::fire(&state, &headers, event).await;
        });
    }
    // A captcha widget loads the provider's script and frames, an interactive map the tile
    // server's images, an embed or reservation block its third party's frame or script: pages
    // then allow their hosts.
    let third_parties = response
        .extensions()
        .get::<Arc<ThirdPartySources>>()
        .cloned();
    add_content_security_policy(&state, &mut response, third_parties.as_deref());
    response
}

/// The page's own Content-Security-Policy, when the site's captcha, its map tiles or the
/// page's blocks (`third_parties`) need more than the strict policy every answer carries.
pub(crate) fn add_content_security_policy(
    state: &AppState,
    response: &mut Response,
    third_parties: Option<&ThirdPartySources>,
) {
    let policy = render::page_content_security_policy(
        state
            .pages
            .captcha_settings()
            .map(|captcha| captcha.provider.as_str()),
        state
            .static_maps
            .as_ref()
            .map(|maps| maps.server().template().origin()),
        third_parties,
    );
    if let Some(value) = policy.and_then(|policy| axum::http::HeaderValue::from_str(&policy).ok()) {
        response
            .headers_mut()
            .insert(axum::http::header::CONTENT_SECURITY_POLICY, value);
    }
}

/// A browser fetching a page ahead of a possible visit (speculation rules, link prefetch):
/// not a view.
pub(crate) fn is_prefetch(headers: &HeaderMap) -> bool {
    ["sec-purpose", "purpose"].into_iter().any(|name| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.contains("prefetch"))
    })
}

/// The page at `uri` and, when it is a product page answered 200, the product it shows. A page
/// with experiments is this visitor's variant of it; `counted` records the exposures.
async fn page_response(
    state: &AppState,
    uri: &Uri,
    request: &HeaderMap,
    address: &ClientAddress,
    counted: bool,
) -> (Response, Option<Arc<ViewedProduct>>) {
    let path = uri.path();
    let revision = state
        .page_cache
        .revision(state.repository.as_ref())
        .await
        .ok();
    let viewer = crate::shared::viewer::page_viewer(state, request).await;
    let profile = match revision {
        Some(revision) => {
            state
                .page_cache
                .profile(revision, state.repository.as_ref())
                .await
        }
        None => None,
    };
    let variants = page_variants(state, profile, request, address, path, &viewer).await;
    let (mut response, viewed) =
        variant_response(state, path, request, viewer, revision, variants.as_ref()).await;
    if let Some(variants) = &variants {
        variants.finish(&mut response);
        if counted && response.status() == StatusCode::OK {
            variants.record_exposures(state, path);
        }
    }
    (response, viewed)
}

/// The page at `path` as `variants` show it (as everyone sees it without experiments).
async fn variant_response(
    state: &AppState,
    path: &str,
    request: &HeaderMap,
    viewer: Viewer,
    revision: Option<u64>,
    variants: Option<&PageVariants>,
) -> (Response, Option<Arc<ViewedProduct>>) {
    let state = state.clone();
    // Every anonymous visitor sees the same HTML, so it can be cached. A signed-in site user
    // may see gated content: their pages never come from the shared cache or go into it. A
    // revision that cannot be read only means no caching: the page service reports the real
    // failure below. Each combination of variants is cached under its own key.
    if !viewer.is_anonymous() {
        return Box::pin(signed_in_page(&state, path, &viewer, variants)).await;
    }
    let key = variants.map_or(Cow::Borrowed(path), |variants| {
        Cow::Owned(variants.cache_key(path))
    });
    let key = key.as_ref();
    // The day is read before the page is made: a render that crosses midnight is stored under
    // the day before, which the next visit no longer matches.
    let version = revision.map(|revision| page_version(&state, revision));
    if let Some(page) = version.and_then(|version| state.page_cache.get(key, version)) {
        let mut response = delivery::cached_page(&page, request);
        response
            .extensions_mut()
            .insert(Arc::clone(&page.third_parties));
        return (response, page.viewed);
    }
    // A render is the rare path. Boxed, its futures stay out of this one, which every visit
    // makes and the router moves onto the heap whole: a cached visit then copies a few
    // hundred bytes instead of the renderer's state.
    Box::pin(rendered_page(&state, path, key, version, viewer, variants)).await
}

/// What a page rendered now, at the site's `revision`, is rendered from.
pub(crate) fn page_version(state: &AppState, revision: u64) -> Version {
    Version {
        revision,
        plugins: state.plugins.generation(),
        day: state.pages.now().map(|now| day_of(now.millis())),
    }
}

/// The page at `path` rendered for an anonymous `viewer`, kept in the page cache under `key`
/// when it may be.
async fn rendered_page(
    state: &AppState,
    path: &str,
    key: &str,
    version: Option<Version>,
    viewer: Viewer,
    variants: Option<&PageVariants>,
) -> (Response, Option<Arc<ViewedProduct>>) {
    match shown(state.pages.page(path, &viewer).await, variants) {
        Ok(view) => match render_html(
            state,
            &view,
            &state.render_pool.prerender(&view, &state.census).await,
            product_reviews(state, &view).await.as_ref(),
        ) {
            Ok((status, page)) => {
                state.plugin_styles.keep(page.stylesheets);
                let html = Bytes::from(page.html);
                let third_parties = Arc::new(page.third_parties);
                let viewed = (status == StatusCode::OK)
                    .then(|| ViewedProduct::of(&view))
                    .flatten()
                    .map(Arc::new);
                let cacheable = status == StatusCode::OK && page.cache_seconds != Some(0);
                let (true, Some(version)) = (cacheable, version) else {
                    let mut response = html_response(status, html);
                    response.extensions_mut().insert(third_parties);
                    return (response, viewed);
                };
                let shared_max_age = page
                    .cache_seconds
                    .map_or(SHARED_MAX_AGE, |seconds| seconds.min(SHARED_MAX_AGE));
                let cache_control = delivery::cache_control(shared_max_age);
                let cached = Page {
                    html: html.clone(),
                    encoded: None,
                    viewed: viewed.clone(),
                    cache_control: cache_control.clone(),
                    third_parties: Arc::clone(&third_parties),
                };
                if state
                    .page_cache
                    .put(key, version, cached, page.cache_seconds)
                {
                    compress_in_background(state, key, version, html.clone());
                }
                let mut response = delivery::public_page(html, cache_control);
                response.extensions_mut().insert(third_parties);
                (response, viewed)
            }
            Err(error) => {
                tracing::error!(%error, path, "rendering a page failed");
                (error_page(state, path, &viewer).await, None)
            }
        },
        Err(error) => {
            log_page_error(&error, path);
            (error_page(state, path, &viewer).await, None)
        }
    }
}

/// A page for a signed-in site user: rendered for them alone and marked private, so neither
/// this server's cache nor any shared cache keeps it.
async fn signed_in_page(
    state: &AppState,
    path: &str,
    viewer: &Viewer,
    variants: Option<&PageVariants>,
) -> (Response, Option<Arc<ViewedProduct>>) {
    let view = match shown(state.pages.page(path, viewer).await, variants) {
        Ok(view) => view,
        Err(error) => {
            log_page_error(&error, path);
            return (error_page(state, path, viewer).await, None);
        }
    };
    let rendered = render_html(
        state,
        &view,
        &state.render_pool.prerender(&view, &state.census).await,
        product_reviews(state, &view).await.as_ref(),
    );
    match rendered {
        Ok((status, page)) => {
            state.plugin_styles.keep(page.stylesheets);
            let viewed = (status == StatusCode::OK)
                .then(|| ViewedProduct::of(&view))
                .flatten()
                .map(Arc::new);
            let mut response = html_response(status, Bytes::from(page.html));
            response.headers_mut().insert(
                axum::http::header::CACHE_CONTROL,
                axum::http::HeaderValue::from_static("private, no-store"),
            );
            response
                .extensions_mut()
                .insert(Arc::new(page.third_parties));
            (response, viewed)
        }
        Err(error) => {
            tracing::error!(%error, path, "rendering a page failed");
            (error_page(state, path, viewer).await, None)
        }
    }
}

/// The page as the visitor's `variants` show it.
fn shown(
    view: Result<PageView, PageError>,
    variants: Option<&PageVariants>,
) -> Result<PageView, PageError> {
    view.map(|mut view| {
        if let Some(variants) = variants {
            variants.apply(&mut view);
        }
        view
    })
}

/// The lock page (page type 103 or 106) of content behind `lock`, answered at `path` for a
/// media file only such content shows, to a `viewer` the gate refuses. Never cached: it is
/// 403.
pub(crate) async fn locked_page(
    state: &AppState,
    path: &str,
    lock: &vitrine_core::pages::access::Lock,
    viewer: &Viewer,
) -> Response {
    let viewer = viewer.clone();
    match state.pages.locked_media_page(path, lock, &viewer).await {
        Ok(Some(view)) => match render_view(state, &view) {
            Ok(response) => response,
            Err(error) => {
                tracing::error!(%error, path, "rendering a lock page failed");
                error_page(state, path, &viewer).await
            }
        },
        Ok(None) => error_page(state, path, &viewer).await,
        Err(error) => {
            log_page_error(&error, path);
            error_page(state, path, &viewer).await
        }
    }
}

/// The lock screen of `path` saying why the password just entered did not open it
/// (`refusal`), answered with `status`.
pub(crate) async fn refused_lock_screen(
    state: &AppState,
    path: &str,
    viewer: &Viewer,
    refusal: &str,
    status: StatusCode,
) -> Response {
    let mut view = match state.pages.page(path, viewer).await {
        Ok(view) => view,
        Err(error) => {
            log_page_error(&error, path);
            return error_page(state, path, viewer).await;
        }
    };
    if let PageContent::Locked { refusal: shown, .. } = &mut view.content {
        *shown = Some(refusal.to_owned());
    }
    match render_view(state, &view) {
        Ok(mut response) => {
            *response.status_mut() = status;
            response.headers_mut().insert(
                CACHE_CONTROL,
                axum::http::HeaderValue::from_static("no-store"),
            );
            response
        }
        Err(error) => {
            tracing::error!(%error, path, "rendering a lock screen failed");
            error_page(state, path, viewer).await
        }
    }
}

/// Makes a newly cached page's compressed copies on the blocking pool, so no request waits for
/// brotli at its best setting, and attaches them to the cached page.
fn compress_in_background(state: &AppState, path: &str, version: Version, html: Bytes) {
    let cache = Arc::clone(&state.page_cache);
    let path = path.to_owned();
    tokio::task::spawn_blocking(move || {
        let encoded = EncodedPage::new(html);
        cache.attach(&path, version, encoded);
    });
}

/// The site's error page (page type 101), or the unavailable page when that fails too.
async fn error_page(state: &AppState, path: &str, viewer: &Viewer) -> Response {
    let view = match state.pages.error_page(path, viewer).await {
        Ok(view) => view,
        Err(error) => {
            log_page_error(&error, path);
            return unavailable_page(state);
        }
    };
    match render_view(state, &view) {
        Ok(response) => response,
        Err(error) => {
            tracing::error!(%error, path, "rendering the error page failed");
            unavailable_page(state)
        }
    }
}

fn render_view(state: &AppState, view: &PageView) -> Result<Response, RenderError> {
    let (status, page) = render_html(state, view, &Prerendered::default(), None)?;
    state.plugin_styles.keep(page.stylesheets);
    Ok(html_response(status, page.html))
}

/// The reviews of a product page's product; none for other pages. A store that cannot be
/// read costs the page its reviews, not the page itself.
async fn product_reviews(state: &AppState, view: &PageView) -> Option<ProductReviews> {
    let PageContent::Item { item, .. } = &view.content else {
        return None;
    };
    let product = item.product.as_ref()?;
    let skus: Vec<Sku> = product
        .variants
        .iter()
        .map(|variant| variant.sku.clone())
        .collect();
    match state
        .reviews
        .product_reviews(&skus, render::REVIEWS_SHOWN)
        .await
    {
        Ok(reviews) => Some(reviews),
        Err(error) => {
            tracing::error!(%error, "reading a product's reviews failed");
            None
        }
    }
}

/// `view` as HTML, its plugin blocks placed from `plugins` (rendered ahead through the
/// render pool, so no plugin runs on this async worker).
fn render_html(
    state: &AppState,
    view: &PageView,
    plugins: &Prerendered,
    reviews: Option<&ProductReviews>,
) -> Result<(StatusCode, render::RenderedPage), RenderError> {
    let islands = render::islands_on(view);
    let assets = state
        .assets
        .page_assets(&islands, &render::started_modules(view));
    let page = render::render_page_with_lifetime(
        view,
        &assets,
        &state.config.public_base_url,
        plugins,
        reviews,
        state.static_maps.as_ref().map(|maps| maps.server()),
    )?;
    let status =
        StatusCode::from_u16(view.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    Ok((status, page))
}

/// Shown when the site itself cannot be read: 503, so crawlers come back rather than index it.
fn unavailable_page(state: &AppState) -> Response {
    let assets = state.assets.page_assets(&BTreeSet::new(), &[]);
    let mut response = html_response(
        StatusCode::SERVICE_UNAVAILABLE,
        render::render_unavailable_page(&assets),
    );
    response.headers_mut().insert(
        RETRY_AFTER,
        axum::http::HeaderValue::from_static(UNAVAILABLE_RETRY_SECONDS),
    );
    response
}

/// Pages that are not the same for everyone (error pages, a shopper's cart): browsers revalidate
/// every time and shared caches keep nothing.
pub(crate) fn html_response(status: StatusCode, html: impl Into<Body>) -> Response {
    (
        status,
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "no-cache"),
        ],
        html.into(),
    )
        .into_response()
}

fn log_page_error(error: &PageError, path: &str) {
    match error {
        PageError::NoSite => {
            tracing::warn!(path, "no site has been imported; run `vitrine import`")
        }
        PageError::Repository(error) => tracing::error!(%error, path, "reading a page failed"),
    }
}
