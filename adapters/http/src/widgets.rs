//! `POST /api/widget/GetWidgetRendering` (000 s7): the HTML of one block, rendered again on
//! request, for the islands that refresh a block in place (social gallery, event summary).

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderName;
use axum::http::header::CACHE_CONTROL;
use axum::routing::post;
use axum::{Form, Json};
use serde::{Deserialize, Serialize};
use vitrine_core::plugins::{
    BlockRenderError, FALLBACK_HTML, WidgetError, WidgetRequest, render_widget,
};

use crate::route_table::Routes;
use crate::{ApiError, AppState};

pub(crate) fn routes() -> Routes {
    Routes::new().route("/api/widget/GetWidgetRendering", post(get_widget_rendering))
}

#[derive(Debug, Deserialize)]
struct WidgetForm {
    #[serde(rename = "widgetJSON")]
    widget_json: String,
}

/// The answer's `html` replaces the block's content on the client (000 s7, `data.html`, where
/// `data` is the response body the request layer hands back).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub(crate) struct WidgetRendering {
    html: String,
}

/// A plugin that fails answers the fallback rather than an error, as on a page (fail-open):
/// the visitor sees the same block either way, and the owner finds the reason in the log.
///
/// The page URL given to the plugin is `/`: the request does not say which page the block is
/// on, and a referrer is not trustworthy enough to pass on as if it were.
///
/// The answer's `Cache-Control` carries the plugin's `cache-seconds` as `max-age` (private,
/// since it is a visitor's request), and `no-store` when the plugin gave none or failed.
async fn get_widget_rendering(
    State(state): State<AppState>,
    Form(form): Form<WidgetForm>,
) -> Result<([(HeaderName, String); 1], Json<WidgetRendering>), ApiError> {
    let request = WidgetRequest::parse(&form.widget_json)
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let profile = state.pages.profile().await?;
    let settings = &profile.settings;
    let plugins = Arc::clone(&state.plugins);
    let site = (
        settings.locale.as_str(),
        settings.store.selected_currency.code(),
    );
    match render_widget(&*plugins, site, &request, "/") {
        Ok(rendering) => {
            let mut html = String::new();
            if let Some(css) = rendering.css {
                html.push_str(&crate::render::stylesheet_link(&css));
                state.plugin_styles.keep(vec![css]);
            }
            html.push_str(rendering.html.as_str());
            Ok((
                [(CACHE_CONTROL, cache_control(rendering.cache_seconds))],
                Json(WidgetRendering { html }),
            ))
        }
        Err(WidgetError::Render(BlockRenderError::Unclaimed(_))) => Err(ApiError::NotFound),
        Err(WidgetError::Render(_)) => Ok((
            [(CACHE_CONTROL, cache_control(None))],
            Json(WidgetRendering {
                html: FALLBACK_HTML.to_owned(),
            }),
        )),
        Err(error) => Err(ApiError::BadRequest(error.to_string())),
    }
}

fn cache_control(seconds: Option<u32>) -> String {
    match seconds {
        Some(seconds) if seconds > 0 => format!("private, max-age={seconds}"),
        _ => "no-store".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::{WidgetRendering, cache_control};

    #[test]
    fn a_plugins_lifetime_becomes_max_age() {
        assert_eq!(cache_control(Some(300)), "private, max-age=300");
        assert_eq!(cache_control(Some(0)), "no-store");
        assert_eq!(cache_control(None), "no-store");
    }

    #[test]
    fn the_answer_is_an_object_with_html() {
        let answer = WidgetRendering {
            html: "<p>Hi</p>".to_owned(),
        };
        insta::assert_json_snapshot!(answer, @r#"
        {
          "html": "<p>Hi</p>"
        }
        "#);
    }
}
