//! `POST /api/widget/GetWidgetRendering` (000 s7): the HTML of one block, rendered again on
//! request, for the islands that refresh a block in place (social gallery, event summary).

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, RETRY_AFTER};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Form, Json};
use serde::{Deserialize, Serialize};
use vitrine_core::plugins::{BlockRenderError, FALLBACK_HTML, WidgetRequest};

use crate::render::pool::OwnedRenderRequest;
use crate::shared::route_table::Routes;
use crate::{ApiError, ApiErrorBody, AppState};

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
/// Input the plugin is not given or refuses (block data above its input limit, data it calls
/// invalid) answers 413 or 400 with the reason, and does not count against the plugin. When
/// every render slot and the queue are taken, the answer is 503 with `Retry-After`.
///
/// The page URL given to the plugin is `/`: the request does not say which page the block is
/// on, and a referrer is not trustworthy enough to pass on as if it were.
///
/// The answer's `Cache-Control` carries the plugin's `cache-seconds` as `max-age` (private,
/// since it is a visitor's request), and `no-store` when the plugin gave none or failed.
async fn get_widget_rendering(
    State(state): State<AppState>,
    Form(form): Form<WidgetForm>,
) -> Result<Response, ApiError> {
    let request = WidgetRequest::parse(&form.widget_json)
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let block_type = request
        .block_type()
        .map_err(|error| ApiError::BadRequest(error.to_string()))?;
    let profile = state.pages.profile().await?;
    let settings = &profile.settings;
    let render = OwnedRenderRequest {
        locale: settings.locale.clone(),
        currency: settings.store.selected_currency.code().to_owned(),
        block_id: request.id.clone(),
        block_type,
        page_url: "/".to_owned(),
        data: request.data(),
    };
    let rendering = match state.render_pool.render(render, &state.census).await {
        Ok(rendering) => rendering,
        Err(BlockRenderError::Unclaimed(_)) => return Err(ApiError::NotFound),
        Err(error @ BlockRenderError::InputTooLarge { .. }) => {
            return Ok(refusal(StatusCode::PAYLOAD_TOO_LARGE, error.to_string()));
        }
        Err(error @ BlockRenderError::InvalidInput { .. }) => {
            return Err(ApiError::BadRequest(error.to_string()));
        }
        Err(BlockRenderError::Busy) => {
            let mut answer = refusal(StatusCode::SERVICE_UNAVAILABLE, BUSY_MESSAGE.to_owned());
            answer
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from_static(BUSY_RETRY_SECONDS));
            return Ok(answer);
        }
        Err(BlockRenderError::Failed { .. } | BlockRenderError::Disabled { .. }) => {
            let fallback = WidgetRendering {
                html: FALLBACK_HTML.to_owned(),
            };
            return Ok(([(CACHE_CONTROL, cache_control(None))], Json(fallback)).into_response());
        }
    };
    let mut html = String::new();
    if let Some(css) = rendering.css {
        html.push_str(&crate::render::stylesheet_link(&css));
        state.plugin_styles.keep(vec![css]);
    }
    html.push_str(rendering.html.as_str());
    Ok((
        [(CACHE_CONTROL, cache_control(rendering.cache_seconds))],
        Json(WidgetRendering { html }),
    )
        .into_response())
}

/// What a visitor reads when every render slot is taken.
pub(crate) const BUSY_MESSAGE: &str =
    "Too many blocks are being rendered right now. Please try again in a moment.";
/// How long to wait before asking again when busy: renders last at most about a second.
const BUSY_RETRY_SECONDS: &str = "1";

/// An error answer in the API's JSON shape, never stored by a cache.
fn refusal(status: StatusCode, error: String) -> Response {
    let body = ApiErrorBody {
        error,
        crumb_fail: false,
    };
    (status, [(CACHE_CONTROL, "no-store")], Json(body)).into_response()
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
