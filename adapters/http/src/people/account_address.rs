//! The account page's saved shipping address (the one checkout fills in): shown as the
//! lines of an address, with a form that removes it, carrying the session's XSRF token like
//! the page's other forms.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::post;
use vitrine_core::checkout::ShippingAddress;
use vitrine_core::people::Viewer;

use super::account_page::{account, required, xsrf_refusal};
use super::forms::{Posted, carries_xsrf};
use crate::AppState;
use crate::render::people_pages::Notice;
use crate::shared::route_table::Routes;

/// Where the saved address's remove button posts.
pub const REMOVE_ADDRESS_PATH: &str = "/account/address/remove";
/// What the page says once the saved address is removed.
pub const ADDRESS_REMOVED: &str = "Your saved address has been removed.";

pub(crate) fn routes() -> Routes {
    Routes::new().route(REMOVE_ADDRESS_PATH, post(remove))
}

/// The viewer's saved address as the lines of an address; none when none is saved.
pub(super) async fn saved_address_lines(
    state: &AppState,
    viewer: &Viewer,
) -> Result<Option<Vec<String>>, Response> {
    match state.people.saved_address(&viewer.account.id).await {
        Ok(saved) => Ok(saved.as_ref().map(lines)),
        Err(error) => {
            tracing::error!(%error, "reading an account's saved address failed");
            Err(crate::shared::visitor_page::unavailable(state))
        }
    }
}

/// The non-empty lines of `address`, as a label prints them.
fn lines(address: &ShippingAddress) -> Vec<String> {
    let place = [
        address.city.as_str(),
        address.region.as_str(),
        address.postal_code.as_str(),
    ]
    .into_iter()
    .filter(|part| !part.is_empty())
    .collect::<Vec<_>>()
    .join(" ");
    [
        address.name.clone(),
        address.line1.clone(),
        address.line2.clone(),
        place,
        address.country.clone(),
    ]
    .into_iter()
    .filter(|line| !line.is_empty())
    .collect()
}

/// `POST /account/address/remove`: forgets the saved address, then shows the account page.
async fn remove(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let viewer = match required(&state, &parts.headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    if !carries_xsrf(&viewer, &Posted::parse(&body)) {
        return xsrf_refusal(&state, &viewer).await;
    }
    if let Err(error) = state.people.remove_address(&viewer.account.id).await {
        tracing::error!(%error, "removing a saved address failed");
        return crate::shared::visitor_page::unavailable(&state);
    }
    account(
        &state,
        &viewer,
        StatusCode::OK,
        Some(Notice::info(ADDRESS_REMOVED)),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_prints_its_filled_lines_only() {
        let address = ShippingAddress {
            name: "Grace Hopper".into(),
            line1: "1 Compiler Way".into(),
            line2: String::new(),
            city: "Arlington".into(),
            region: "VA".into(),
            postal_code: String::new(),
            country: "US".into(),
        };
        assert_eq!(
            lines(&address),
            ["Grace Hopper", "1 Compiler Way", "Arlington VA", "US"]
        );
    }
}
