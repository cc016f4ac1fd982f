//! The geocoder of the map block's place search, off unless configured: `--geocoder-url`
//! (`VITRINE_GEOCODER_URL`) names a Photon-compatible API.

use std::sync::Arc;

use anyhow::Context;
use vitrine_http::AppState;
use vitrine_services::PhotonGeocoder;

/// `state` answering the places calls from the geocoder at `url`, or unchanged without one;
/// a URL that is not one stops the server.
pub fn apply(state: AppState, url: Option<&str>) -> anyhow::Result<AppState> {
    let Some(url) = url.map(str::trim).filter(|url| !url.is_empty()) else {
        return Ok(state);
    };
    let base = url::Url::parse(url).context("--geocoder-url is not a URL")?;
    if !matches!(base.scheme(), "http" | "https") {
        anyhow::bail!("--geocoder-url must be an http or https URL, found {url:?}");
    }
    let geocoder = PhotonGeocoder::new(&base).context("--geocoder-url cannot take /api")?;
    tracing::info!(geocoder = %base, "place search asks a Photon-compatible geocoder");
    Ok(state.with_geocoder(Arc::new(geocoder)))
}
