//! The gift card balance check, `/gift-cards/balance`: a form without JavaScript where a
//! recipient types the code from their mail and reads what is left to spend. The check is a
//! `POST`, so codes stay out of addresses, logs and history, and it counts against the
//! attempt limits (`shared/attempt_limits.rs`) like a coupon does, so codes cannot be guessed
//! by the thousand. A code no card has and a code shaped wrongly get the same answer.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::PLEASE_TRY_AGAIN;
use vitrine_core::enums::PageType;
use vitrine_core::gift_cards::GIFT_CARD_BALANCE_PATH;

use crate::AppState;
use crate::commerce::cart_page::FormFields;
use crate::render::commerce_pages::{CommerceMain, NoticeMain};
use crate::render::gift_cards::GiftCardBalanceMain;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

const TITLE: &str = "Gift card balance";

pub(crate) fn routes() -> Routes {
    Routes::new().route(GIFT_CARD_BALANCE_PATH, get(show).post(check))
}

async fn page(state: &AppState, main: GiftCardBalanceMain) -> Response {
    let main = CommerceMain::GiftCardBalance(Box::new(main));
    let mut response = respond(
        state,
        PageType::Page,
        GIFT_CARD_BALANCE_PATH,
        TITLE,
        StatusCode::OK,
        &main,
    )
    .await;
    // A balance is the card holder's business: no shared cache keeps it.
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    response
}

async fn show(State(state): State<AppState>) -> Response {
    page(&state, GiftCardBalanceMain::new(None)).await
}

async fn check(State(state): State<AppState>, body: Bytes) -> Response {
    let typed = FormFields::parse(&body).text("code");
    match state.carts.gift_card_balance(&typed).await {
        Ok(balance) => page(&state, GiftCardBalanceMain::new(Some(&balance))).await,
        Err(cause) => {
            tracing::error!(error = %cause, "reading a gift card's balance failed");
            let main = CommerceMain::Notice(NoticeMain {
                heading: TITLE,
                text: PLEASE_TRY_AGAIN.to_owned(),
                link_href: GIFT_CARD_BALANCE_PATH,
                link_text: "Try again",
            });
            let status = StatusCode::SERVICE_UNAVAILABLE;
            respond(
                &state,
                PageType::Page,
                GIFT_CARD_BALANCE_PATH,
                TITLE,
                status,
                &main,
            )
            .await
        }
    }
}
