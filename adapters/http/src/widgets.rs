//! `POST /api/widget/GetWidgetRendering` (000 s7): the HTML of one block, rendered again on
//! request, for the islands that refresh a block in place (social gallery, event summary).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Form, Json, Router};
use serde::{Deserialize, Serialize};
use vitrine_core::plugins::{
    BlockRenderError, FALLBACK_HTML, WidgetError, WidgetRequest, render_widget,
};

use crate::{ApiError, AppState};

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/api/widget/GetWidgetRendering", post(get_widget_rendering))
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
async fn get_widget_rendering(
    State(state): State<AppState>,
    Form(form): Form<WidgetForm>,
) -> Result<Json<WidgetRendering>, ApiError> {
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
        Ok(html) => Ok(Json(WidgetRendering {
            html: html.into_string(),
        })),
        Err(WidgetError::Render(BlockRenderError::Unclaimed(_))) => Err(ApiError::NotFound),
        Err(WidgetError::Render(_)) => Ok(Json(WidgetRendering {
            html: FALLBACK_HTML.to_owned(),
        })),
        Err(error) => Err(ApiError::BadRequest(error.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::WidgetRendering;

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
