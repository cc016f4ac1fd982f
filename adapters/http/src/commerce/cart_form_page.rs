//! Product forms without JavaScript. `GET /cart/form?line=` shows a cart line's form with its
//! answers inside the site's chrome; it posts to `POST /cart/form`, which goes back to the
//! cart (303) or shows the form again with a message per field. An add to the cart refused
//! for its answers shows the product's form the same way, posting to `/cart` again, so
//! nothing the shopper typed is lost.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use vitrine_core::cart::texts::{
    UNABLE_TO_OPEN_FORM, UNABLE_TO_UPDATE_FORM, UPDATE_MISSING_INFORMATION,
};
use vitrine_core::cart::{CartError, CartToken, LineId};
use vitrine_core::catalog::{ProductForm, Sku, SubmittedAnswers};
use vitrine_core::checkout::{CartServiceError, InvalidAnswers, LineForm};
use vitrine_core::enums::PageType;
use vitrine_core::forms::FieldErrors;
use vitrine_core::site::ItemId;

use crate::AppState;
use crate::commerce::cart::{now, request_token};
use crate::commerce::cart_page::{FormFields, after, cart_page, current_cart};
use crate::render::commerce_pages::CommerceMain;
use crate::render::product_form::{LineFormMain, ProductFormFields, submitted_answers};
use crate::shared::visitor_page::respond;

/// The element ids of the form's fields start with this.
const ID_PREFIX: &str = "line-form";

/// What a refused add was adding, to send again with the corrected answers.
pub(crate) struct Adding<'a> {
    pub(crate) item: &'a ItemId,
    pub(crate) sku: &'a Sku,
    pub(crate) quantity: u32,
}

/// The product's form with the shopper's answers and a message per refused field (400).
pub(crate) async fn refused_add(
    state: &AppState,
    adding: Adding<'_>,
    form: &ProductForm,
    answers: &SubmittedAnswers,
    invalid: &InvalidAnswers,
) -> Response {
    let main = LineFormMain {
        heading: invalid.product_name.clone(),
        lead: lead(&invalid.product_name, adding.sku, adding.quantity),
        action: "/cart",
        hidden: vec![
            ("itemId", adding.item.to_string()),
            ("sku", adding.sku.as_str().to_owned()),
            ("quantity", adding.quantity.to_string()),
        ],
        fields: ProductFormFields::new(ID_PREFIX, form, answers, &invalid.errors),
        alert: Some(UPDATE_MISSING_INFORMATION.to_owned()),
        submit_label: "Add to cart",
    };
    page(state, StatusCode::BAD_REQUEST, main).await
}

/// `GET /cart/form?line=`: the line's form with its answers so far.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    let line = query
        .get("line")
        .and_then(|line| LineId::parse(line.as_str()).ok());
    let Some(line) = line else {
        return cart_with_alert(&state, &headers, StatusCode::NOT_FOUND, UNABLE_TO_OPEN_FORM).await;
    };
    let opened = match request_token(&headers) {
        Some(token) => state.carts.line_form(&token, &line).await,
        None => Err(CartServiceError::NoCart),
    };
    match opened {
        Ok(opened) => {
            let values = answers_of(&opened);
            edit_page(
                &state,
                StatusCode::OK,
                &opened,
                &values,
                &FieldErrors::new(),
                None,
            )
            .await
        }
        Err(error) => refused(&state, &headers, &error, UNABLE_TO_OPEN_FORM).await,
    }
}

/// `POST /cart/form`: the line's new answers.
pub(crate) async fn save(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let line = FormFields::parse(&body)
        .get("line")
        .and_then(|line| LineId::parse(line).ok());
    let answers = submitted_answers(&body);
    let Some(line) = line else {
        return cart_with_alert(
            &state,
            &headers,
            StatusCode::NOT_FOUND,
            UNABLE_TO_UPDATE_FORM,
        )
        .await;
    };
    let Some(token) = request_token(&headers) else {
        return refused(
            &state,
            &headers,
            &CartServiceError::NoCart,
            UNABLE_TO_UPDATE_FORM,
        )
        .await;
    };
    let outcome = state
        .carts
        .update_answers(&token, &line, &answers, now())
        .await;
    match outcome {
        Err(CartServiceError::InvalidAnswers(invalid)) => {
            show_refused_answers(&state, &headers, &token, &line, &answers, &invalid).await
        }
        outcome => after(&state, &headers, outcome, UNABLE_TO_UPDATE_FORM).await,
    }
}

/// The form again with the answers as sent and a message per field (400).
async fn show_refused_answers(
    state: &AppState,
    headers: &HeaderMap,
    token: &CartToken,
    line: &LineId,
    answers: &SubmittedAnswers,
    invalid: &InvalidAnswers,
) -> Response {
    match state.carts.line_form(token, line).await {
        Ok(opened) => {
            let alert = Some(UPDATE_MISSING_INFORMATION.to_owned());
            edit_page(
                state,
                StatusCode::BAD_REQUEST,
                &opened,
                answers,
                &invalid.errors,
                alert,
            )
            .await
        }
        Err(error) => refused(state, headers, &error, UNABLE_TO_UPDATE_FORM).await,
    }
}

fn answers_of(opened: &LineForm) -> SubmittedAnswers {
    opened
        .line
        .answers
        .as_ref()
        .map(|answers| answers.to_submitted())
        .unwrap_or_default()
}

fn lead(product_name: &str, sku: &Sku, quantity: u32) -> String {
    format!("{product_name} ({}), quantity {quantity}", sku.as_str())
}

async fn edit_page(
    state: &AppState,
    status: StatusCode,
    opened: &LineForm,
    values: &SubmittedAnswers,
    errors: &FieldErrors,
    alert: Option<String>,
) -> Response {
    let entry = &opened.line;
    let main = LineFormMain {
        heading: format!("{} for {}", opened.form.title, entry.product_name),
        lead: lead(&entry.product_name, &entry.sku, entry.quantity),
        action: "/cart/form",
        hidden: vec![("line", entry.line_id().to_string())],
        fields: ProductFormFields::new(ID_PREFIX, &opened.form, values, errors),
        alert,
        submit_label: "Save",
    };
    page(state, status, main).await
}

async fn page(state: &AppState, status: StatusCode, main: LineFormMain) -> Response {
    let heading = main.heading.clone();
    let main = CommerceMain::LineForm(Box::new(main));
    respond(
        state,
        PageType::CartV2,
        "/cart/form",
        &heading,
        status,
        &main,
    )
    .await
}

/// The cart with the call's text: the form cannot open or be saved (a purchased cart, a line
/// no longer there, a product that asks for nothing now).
async fn refused(
    state: &AppState,
    headers: &HeaderMap,
    error: &CartServiceError,
    text: &str,
) -> Response {
    let status = match error {
        CartServiceError::Repository(cause) => {
            tracing::error!(error = %cause, "a product form page failed in the store");
            StatusCode::SERVICE_UNAVAILABLE
        }
        CartServiceError::NoCart => StatusCode::BAD_REQUEST,
        CartServiceError::NoProductForm(_)
        | CartServiceError::Cart(CartError::NotInCart(_) | CartError::LineNotInCart(_)) => {
            StatusCode::NOT_FOUND
        }
        _ => StatusCode::CONFLICT,
    };
    cart_with_alert(state, headers, status, text).await
}

async fn cart_with_alert(
    state: &AppState,
    headers: &HeaderMap,
    status: StatusCode,
    text: &str,
) -> Response {
    let cart = current_cart(state, headers).await;
    cart_page(
        state,
        PageType::CartV2,
        status,
        &cart,
        Some(text.to_owned()),
        &[],
    )
    .await
}
