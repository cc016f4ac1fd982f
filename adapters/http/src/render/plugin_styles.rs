//! `GET /plugin-styles/NAME.css`: the stylesheets plugin blocks bring, scoped and cleaned by
//! the core ([`vitrine_core::plugins::PluginCss`]) and named by their content's hash, so a
//! browser may keep each forever.

use std::collections::HashMap;
use std::sync::RwLock;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use vitrine_core::plugins::PluginCss;

use crate::AppState;
use crate::shared::route_table::Routes;

/// Where the stylesheets are served; a page links to `PATH` + the file name.
pub(crate) const PATH: &str = "/plugin-styles/";

/// Stylesheets kept at most; each is at most 16 KiB. When full, the oldest half goes: a page
/// cached before may then lose its plugin styles until it is rendered again.
const CAPACITY: usize = 1024;

/// The stylesheets of the plugin blocks rendered so far, by file name.
#[derive(Default)]
pub(crate) struct PluginStyles {
    sheets: RwLock<HashMap<String, (u64, String)>>,
}

impl PluginStyles {
    pub(crate) fn keep(&self, stylesheets: Vec<PluginCss>) {
        if stylesheets.is_empty() {
            return;
        }
        let mut sheets = self
            .sheets
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        for css in stylesheets {
            let name = css.file_name();
            if sheets.contains_key(&name) {
                continue;
            }
            if sheets.len() >= CAPACITY {
                let mut ages: Vec<u64> = sheets.values().map(|(age, _)| *age).collect();
                ages.sort_unstable();
                let cut = ages[ages.len() / 2];
                sheets.retain(|_, (age, _)| *age > cut);
            }
            let age = sheets.values().map(|(age, _)| *age + 1).max().unwrap_or(0);
            sheets.insert(name, (age, css.as_str().to_owned()));
        }
    }

    fn get(&self, name: &str) -> Option<String> {
        self.sheets
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(name)
            .map(|(_, css)| css.clone())
    }
}

pub(crate) fn routes() -> Routes {
    Routes::new().route("/plugin-styles/{name}", get(stylesheet))
}

async fn stylesheet(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    match state.plugin_styles.get(&name) {
        Some(css) => (
            [
                (CONTENT_TYPE, "text/css; charset=utf-8"),
                (CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            css,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stylesheets_are_kept_by_name_and_the_oldest_make_room() {
        let styles = PluginStyles::default();
        let css = PluginCss::scope(".a{color:red}", "b1").unwrap();
        styles.keep(vec![css.clone(), css.clone()]);
        assert_eq!(styles.get(&css.file_name()).as_deref(), Some(css.as_str()));
        for index in 0..CAPACITY {
            let other = PluginCss::scope(".a{color:red}", &format!("b{index}x")).unwrap();
            styles.keep(vec![other]);
        }
        assert!(
            styles.get(&css.file_name()).is_none(),
            "the oldest went first"
        );
        assert!(styles.sheets.read().unwrap().len() <= CAPACITY);
    }
}
