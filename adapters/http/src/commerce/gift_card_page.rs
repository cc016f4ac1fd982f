//! The gift card checkout page, `/checkout/giftcard?websiteId=&giftCardProductId=&sku=`
//! (000 s2; page type 201): it offers a published gift card product of this site in its
//! amounts (the link's `sku` chosen already, when it names one), asks who the card is for and
//! a message, puts the card into the shopper's cart, and hands over to the regular checkout.
//! A link naming no such site, product or amount gets a page saying so. Also the source of
//! gift card codes the server wires into the cart service.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::get;
use vitrine_core::cart::texts::PLEASE_TRY_AGAIN;
use vitrine_core::checkout::{
    AddGiftCardError, CartServiceError, GiftCardForm, GiftCardOffer, GiftCardOfferError,
};
use vitrine_core::enums::PageType;
use vitrine_core::gift_cards::{GiftCardCode, GiftCardCodeSource, RecipientFieldErrors};

use crate::AppState;
use crate::commerce::cart::{give_token, token_or_new};
use crate::commerce::cart_page::FormFields;
use crate::commerce::cart_wire::UNABLE_TO_ADD;
use crate::render::commerce_pages::{CommerceMain, NoticeMain};
use crate::render::gift_cards::GiftCardMain;
use crate::shared::clock::now;
use crate::shared::route_table::Routes;
use crate::shared::visitor_page::respond;

const PATH: &str = "/checkout/giftcard";
const TITLE: &str = "Gift card checkout";

/// What a link without its website or product reads (our text).
pub(crate) const INCOMPLETE_LINK: &str =
    "This gift card link is incomplete. Open the gift card from the shop to choose it again.";
/// What a link to no gift card of this site reads (our text).
pub(crate) const NOT_AVAILABLE: &str =
    "This gift card is not available. It may no longer be sold here.";
/// What a link naming an amount the card is not sold in reads, above the amounts (our text).
pub(crate) const AMOUNT_NOT_AVAILABLE: &str =
    "This amount is not available. Choose one of the amounts below.";

pub(crate) fn routes() -> Routes {
    Routes::new().route(PATH, get(show).post(add))
}

/// Gift card codes from the operating system's random generator: 80 bits each.
#[derive(Debug, Default, Clone, Copy)]
pub struct RandomGiftCardCodes;

impl GiftCardCodeSource for RandomGiftCardCodes {
    fn next_code(&self) -> GiftCardCode {
        let mut bytes = [0u8; 10];
        rand::fill(&mut bytes);
        GiftCardCode::from_random(bytes)
    }
}

async fn page(state: &AppState, status: StatusCode, main: CommerceMain) -> Response {
    respond(state, PageType::Checkout, PATH, TITLE, status, &main).await
}

async fn notice(state: &AppState, status: StatusCode, text: &str) -> Response {
    let main = CommerceMain::Notice(NoticeMain {
        heading: TITLE,
        text: text.to_owned(),
        link_href: "/",
        link_text: "Go to the home page",
    });
    page(state, status, main).await
}

async fn form_page(
    state: &AppState,
    status: StatusCode,
    offer: &GiftCardOffer,
    typed: &GiftCardForm,
    errors: &RecipientFieldErrors,
    alert: Option<String>,
) -> Response {
    let main = GiftCardMain::new(offer, typed, errors, alert);
    page(state, status, CommerceMain::GiftCard(Box::new(main))).await
}

/// The page for a link or a posted form whose product could not be offered.
async fn offer_refused(
    state: &AppState,
    typed: &GiftCardForm,
    error: GiftCardOfferError,
) -> Response {
    match error {
        GiftCardOfferError::UnknownWebsite(_) | GiftCardOfferError::NotAGiftCard(_) => {
            notice(state, StatusCode::NOT_FOUND, NOT_AVAILABLE).await
        }
        // The product is fine: offer its amounts again, none chosen.
        GiftCardOfferError::UnknownAmount { .. } => {
            match state
                .carts
                .gift_card_offer(&typed.website_id, &typed.product_id, None)
                .await
            {
                Ok(offer) => {
                    let typed = GiftCardForm {
                        sku: String::new(),
                        ..typed.clone()
                    };
                    let errors = RecipientFieldErrors::new();
                    let alert = Some(AMOUNT_NOT_AVAILABLE.to_owned());
                    form_page(state, StatusCode::NOT_FOUND, &offer, &typed, &errors, alert).await
                }
                Err(error) => Box::pin(offer_refused(state, typed, error)).await,
            }
        }
        GiftCardOfferError::Repository(cause) => {
            tracing::error!(error = %cause, "reading a gift card product failed");
            notice(state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await
        }
    }
}

fn typed_form(fields: &FormFields) -> GiftCardForm {
    GiftCardForm {
        website_id: fields.text("websiteId"),
        product_id: fields.text("giftCardProductId"),
        sku: fields.text("sku"),
        recipient_name: fields.text("recipientName"),
        recipient_email: fields.text("recipientEmail"),
        message: fields.text("message"),
        send_on: fields.text("sendOn"),
    }
}

async fn show(State(state): State<AppState>, RawQuery(query): RawQuery) -> Response {
    let typed = typed_form(&FormFields::parse(query.unwrap_or_default().as_bytes()));
    if typed.website_id.is_empty() || typed.product_id.is_empty() {
        return notice(&state, StatusCode::BAD_REQUEST, INCOMPLETE_LINK).await;
    }
    let sku = Some(typed.sku.as_str()).filter(|sku| !sku.is_empty());
    match state
        .carts
        .gift_card_offer(&typed.website_id, &typed.product_id, sku)
        .await
    {
        Ok(offer) => {
            let errors = RecipientFieldErrors::new();
            form_page(&state, StatusCode::OK, &offer, &typed, &errors, None).await
        }
        Err(error) => offer_refused(&state, &typed, error).await,
    }
}

async fn add(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let typed = typed_form(&FormFields::parse(&body));
    if typed.website_id.is_empty() || typed.product_id.is_empty() {
        return notice(&state, StatusCode::BAD_REQUEST, INCOMPLETE_LINK).await;
    }
    let (token, is_new) = token_or_new(&state, &headers).await;
    let (status, errors, alert) = match state.carts.add_gift_card(&token, &typed, now()).await {
        Ok(_) => {
            // This POST is the shopper's step into checkout: the gift card is held at once.
            let mut response = crate::commerce::checkout_page::enter_checkout(
                &state,
                &headers,
                Some(token.clone()),
            )
            .await;
            if is_new {
                give_token(&mut response, &token, state.config.secure_cookies);
            }
            return response;
        }
        Err(AddGiftCardError::Offer(error)) => return offer_refused(&state, &typed, error).await,
        Err(AddGiftCardError::Invalid(errors)) => (StatusCode::BAD_REQUEST, errors, None),
        Err(AddGiftCardError::Cart(CartServiceError::Repository(cause))) => {
            tracing::error!(error = %cause, "adding a gift card to a cart failed in the store");
            return notice(&state, StatusCode::SERVICE_UNAVAILABLE, PLEASE_TRY_AGAIN).await;
        }
        Err(AddGiftCardError::Cart(_)) => (
            StatusCode::CONFLICT,
            RecipientFieldErrors::new(),
            Some(UNABLE_TO_ADD.to_owned()),
        ),
    };
    // The chosen amount stays chosen: the offer is read again without it, and the form's
    // own `sku` checks its radio button.
    match state
        .carts
        .gift_card_offer(&typed.website_id, &typed.product_id, None)
        .await
    {
        Ok(offer) => form_page(&state, status, &offer, &typed, &errors, alert).await,
        Err(error) => offer_refused(&state, &typed, error).await,
    }
}
