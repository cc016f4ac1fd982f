//! The ad pixel for conversion events, off unless configured: `VITRINE_META_PIXEL_ID` and
//! `VITRINE_META_ACCESS_TOKEN` (both, or neither) turn on the Meta Conversions API adapter;
//! `VITRINE_META_GRAPH_URL` points it at a compatible server instead of Meta's.

use std::sync::Arc;

use anyhow::bail;
use vitrine_http::AppState;
use vitrine_services::{META_GRAPH_URL, MetaConversionsApi};

fn setting(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|value| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

/// `state` with the configured pixel, or unchanged; half a configuration stops the server.
pub fn apply(state: AppState) -> anyhow::Result<AppState> {
    let pixel = setting("VITRINE_META_PIXEL_ID");
    let token = setting("VITRINE_META_ACCESS_TOKEN");
    match (pixel, token) {
        (Some(pixel), Some(token)) => {
            let base = setting("VITRINE_META_GRAPH_URL").unwrap_or_else(|| META_GRAPH_URL.into());
            tracing::info!(pixel, "conversion events go to the Meta Conversions API");
            Ok(state.with_ad_pixel(Arc::new(MetaConversionsApi::new(&base, &pixel, &token))))
        }
        (None, None) => Ok(state),
        _ => bail!(
            "VITRINE_META_PIXEL_ID and VITRINE_META_ACCESS_TOKEN must be set together to send conversion events"
        ),
    }
}
