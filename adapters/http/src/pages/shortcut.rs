//! Cached pages answered before the rest of the router: the one answer that makes up most of
//! a storefront's traffic, a published page an anonymous visitor asks for, goes out from the
//! page cache without the time-out, the admission checks and the routing, which cost it more
//! than the answer itself (BENCHMARKS.md, "Cached pages before the router").
//!
//! The shortcut answers only what the page route would answer the same way from what is
//! already in memory, with no await: a `GET` of a path without a query, from a visitor the
//! page route would serve as anonymous and whose answer would set or clear no cookie, for a
//! page on which no experiment runs and whose view sends no ad-pixel event, cached at the
//! revision read less than a second ago (`cache.rs`). Anything else, and every cache miss, goes
//! on to the router unchanged. It sits outside every layer, so it gives its answers what the
//! layers it skips would give them: the security headers, the request id and the request's log
//! lines; the router's tests compare the two paths' answers header by header.

use std::convert::Infallible;
use std::future::{Ready, ready};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::body::HttpBody as _;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderValue, Method};
use axum::response::Response;
use futures_util::FutureExt;
use futures_util::future::{Either, Map};
use tower::util::Oneshot;
use tower::{Layer, Service, ServiceExt};

use crate::AppState;
use crate::pages::{delivery, published};
use crate::shared::observability;

/// The cached answer to `request`, when the page route would give exactly that answer; `None`
/// sends the request on to the router.
pub(crate) fn cached_answer(state: &AppState, request: &Request) -> Option<Response> {
    if request.method() != Method::GET || request.uri().query().is_some() {
        return None;
    }
    let headers = request.headers();
    // Cookies that make a visitor signed in or let them into a locked collection (a page of
    // their own), or that their answer may have to expire (refused tracking cookies).
    if crate::shared::viewer::session_cookie(state, headers).is_some()
        || crate::shared::viewer::carries_unlock_cookie(headers)
        || crate::shared::request_parts::carries_tracking_cookie(headers)
    {
        return None;
    }
    let path = request.uri().path();
    let revision = state.page_cache.fresh_revision()?;
    let profile = state.page_cache.kept_profile(revision)?;
    // A page with an experiment is each visitor's variant, assigned and counted by the route.
    if profile.settings.experiments.any_applies_to(path) {
        return None;
    }
    let page = state
        .page_cache
        .get(path, published::page_version(state, revision))?;
    // Until its compressed copies are made, the router's layer compresses the page; a product
    // page's view tells the ad pixel, which the route sends.
    if page.encoded.is_none() || (page.viewed.is_some() && state.ad_pixel.is_some()) {
        return None;
    }
    let mut response = delivery::cached_page(&page, headers);
    published::add_content_security_policy(state, &mut response, Some(&page.third_parties));
    Some(response)
}

/// The layer that puts [`Shortcut`] around the rest of the router.
#[derive(Clone)]
pub(crate) struct ShortcutLayer {
    state: AppState,
}

impl ShortcutLayer {
    pub(crate) fn new(state: AppState) -> Self {
        Self { state }
    }
}

impl<S> Layer<S> for ShortcutLayer {
    type Service = Shortcut<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Shortcut {
            state: self.state.clone(),
            inner,
        }
    }
}

/// Answers cached pages itself ([`cached_answer`]) and sends every other request on to `inner`.
#[derive(Clone)]
pub(crate) struct Shortcut<S> {
    state: AppState,
    inner: S,
}

impl<S, B> Service<Request> for Shortcut<S>
where
    S: Service<Request, Response = Response<B>, Error = Infallible> + Clone,
    B: axum::body::HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Either<Ready<Result<Response, Infallible>>, Map<Oneshot<S, Request>, Boxed<B>>>;

    /// Always ready: a cached answer waits for nothing, and the rest waits for `inner` to be
    /// ready (its concurrency limit) in its own turn, through `oneshot`.
    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let started = Instant::now();
        match cached_answer(&self.state, &request) {
            Some(mut response) => {
                // What axum's routes add to every answer whose length is known.
                if let Some(length) = response.body().size_hint().exact() {
                    response
                        .headers_mut()
                        .entry(CONTENT_LENGTH)
                        .or_insert(HeaderValue::from(length));
                }
                let response = crate::shared::security_headers::add(
                    self.state.config.secure_cookies,
                    response,
                );
                Either::Left(ready(Ok(observability::answered_without_layers(
                    &request, response, started,
                ))))
            }
            None => Either::Right(self.inner.clone().oneshot(request).map(boxed as Boxed<B>)),
        }
    }
}

/// The router's answer with its body as the router's own body type (the tracing layer wraps
/// it), which the outer router would otherwise box the same way.
type Boxed<B> = fn(Result<Response<B>, Infallible>) -> Result<Response, Infallible>;

fn boxed<B>(answer: Result<Response<B>, Infallible>) -> Result<Response, Infallible>
where
    B: axum::body::HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    answer.map(|response| response.map(Body::new))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;
    use vitrine_core::pages::PageService;
    use vitrine_core::ports::SiteRepository;
    use vitrine_core::ports::conformance::fixture_site;
    use vitrine_core::ports::memory::MemorySiteRepository;

    use super::cached_answer;
    use crate::{AppState, AssetStore, HttpConfig};

    const BROWSER: &str = "gzip, deflate, br";

    /// A server of the fixture site.
    async fn fixture_state(config: HttpConfig) -> AppState {
        let repository = Arc::new(MemorySiteRepository::new());
        repository
            .replace_site(&fixture_site("Shortcut Shop"))
            .await
            .unwrap();
        let pages = Arc::new(PageService::new(repository.clone()));
        AppState::new(pages, repository, Arc::new(AssetStore::empty()), config)
    }

    /// A server of the fixture site whose home page is in the page cache with its copies.
    async fn cached_home() -> AppState {
        let state = fixture_state(HttpConfig::new("https://shop.example", false)).await;
        let router = crate::router(state.clone());
        for _ in 0..1000 {
            let answer = router.clone().oneshot(get("/", &[])).await.unwrap();
            if answer.headers().contains_key("etag") {
                return state;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the home page never got its compressed copies");
    }

    fn get(uri: &str, headers: &[(&str, &str)]) -> Request<Body> {
        let mut request = Request::get(uri).header("accept-encoding", BROWSER);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(Body::empty()).unwrap()
    }

    #[tokio::test]
    async fn an_anonymous_visit_of_a_cached_page_is_answered_before_the_router() {
        let state = cached_home().await;
        let answer = cached_answer(&state, &get("/", &[])).expect("answered from the cache");
        assert_eq!(answer.status(), 200);
        assert_eq!(answer.headers()["content-encoding"], "br");
        // Cookies that change neither the page nor its answer: the visitor's consent (no
        // tracking cookie to clear), the crumb, a cart.
        let consenting = get("/", &[("cookie", "ss_cookieAllowed=1; crumb=abc; cart=c1")]);
        assert!(cached_answer(&state, &consenting).is_some());
        let etag = answer.headers()["etag"].to_str().unwrap().to_owned();
        let revalidated = cached_answer(&state, &get("/", &[("if-none-match", &etag)]))
            .expect("a revalidation is answered from the cache too");
        assert_eq!(revalidated.status(), 304);
    }

    #[tokio::test]
    async fn whatever_the_route_would_answer_otherwise_goes_on_to_the_router() {
        let state = cached_home().await;
        let head = Request::head("/").body(Body::empty()).unwrap();
        let post = Request::post("/").body(Body::empty()).unwrap();
        let others = [
            ("a HEAD", head),
            ("a POST", post),
            (
                "a query (which may ask for a feed)",
                get("/?format=rss", &[]),
            ),
            ("a page not in the cache", get("/nowhere", &[])),
            (
                "a signed-in site user",
                get("/", &[("cookie", "siteuser=token")]),
            ),
            (
                "an unlock cookie of a locked collection",
                get("/", &[("cookie", "unlock-members=key")]),
            ),
            (
                "a tracking cookie the answer may have to expire",
                get("/", &[("cookie", "ss_cookieAllowed=0; SS_MID=visitor")]),
            ),
        ];
        for (what, request) in others {
            assert!(
                cached_answer(&state, &request).is_none(),
                "{what} must go to the router"
            );
        }
    }

    #[tokio::test]
    async fn a_revision_not_read_lately_sends_the_visit_to_the_router_which_reads_it() {
        let state = fixture_state(
            HttpConfig::new("https://shop.example", false)
                .with_revision_check_interval(Duration::ZERO),
        )
        .await;
        let router = crate::router(state.clone());
        router.clone().oneshot(get("/", &[])).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            cached_answer(&state, &get("/", &[])).is_none(),
            "an import by another process must show: the revision is read again first"
        );
    }
}
