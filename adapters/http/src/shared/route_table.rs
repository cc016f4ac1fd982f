//! The features' route table. Every route a feature serves is added through [`Routes`], which
//! keeps its path beside the handler, so the API description can be checked against what the
//! router really serves (the axum router itself cannot list its routes).

use axum::Router;
use axum::routing::MethodRouter;

use crate::AppState;

/// Routes with their paths remembered; it becomes the router's routes with `Router::merge`.
#[derive(Default)]
pub struct Routes {
    router: Router<AppState>,
    paths: Vec<&'static str>,
}

impl Routes {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn route(mut self, path: &'static str, handlers: MethodRouter<AppState>) -> Self {
        self.paths.push(path);
        self.router = self.router.route(path, handlers);
        self
    }

    pub fn merge(mut self, other: Routes) -> Self {
        self.paths.extend(other.paths);
        self.router = self.router.merge(other.router);
        self
    }

    /// The routes added so far wrapped by `wrap` (a body limit, say); their paths stay listed.
    pub fn map(mut self, wrap: impl FnOnce(Router<AppState>) -> Router<AppState>) -> Self {
        self.router = wrap(self.router);
        self
    }

    /// Every path added, in the order added, with axum's `{parameter}` syntax.
    pub fn paths(&self) -> &[&'static str] {
        &self.paths
    }
}

impl From<Routes> for Router<AppState> {
    fn from(routes: Routes) -> Self {
        routes.router
    }
}
