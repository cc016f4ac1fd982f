//! The cart API of product forms: a line's form with its answers so far
//! (`GET /api/commerce/cart/items/{line}/form`) and new answers for it
//! (`PUT /api/commerce/cart/items/{line}/form {form}`). Handlers parse, call the core's cart
//! service once and map the result; refused answers answer 400 with a message per field, other
//! failures the cart texts of 000 s8 ('Unable to open form', 'Unable to update form').

use std::collections::BTreeMap;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use vitrine_core::catalog::ProductForm;
use vitrine_core::checkout::{CartServiceError, LineForm};
use vitrine_core::site::FormFieldType;

use crate::AppState;
use crate::commerce::cart::{line_from, now, request_token};
use crate::commerce::cart_wire::{CartAnswer, CartCall, answers_field, failure, object};

/// A line's form as the cart editor needs it: the question, the answers so far, and the line.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LineFormDto {
    line_id: String,
    product_name: String,
    sku: String,
    form: ProductFormDto,
    /// Field id to the answer so far; fields without an answer are absent.
    answers: BTreeMap<String, String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProductFormDto {
    title: String,
    fields: Vec<FieldDto>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FieldDto {
    id: String,
    /// The block format's name of the type: text, textarea, email, select or radio.
    #[serde(rename = "type")]
    field_type: FormFieldType,
    title: String,
    description: String,
    placeholder: String,
    required: bool,
    /// The most characters the answer takes: the field's own limit or the general one.
    max_length: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    options: Vec<String>,
}

impl LineFormDto {
    pub(crate) fn new(opened: &LineForm) -> Self {
        Self {
            line_id: opened.line.line_id().to_string(),
            product_name: opened.line.product_name.clone(),
            sku: opened.line.sku.as_str().to_owned(),
            form: ProductFormDto {
                title: opened.form.title.clone(),
                fields: opened
                    .form
                    .fields
                    .iter()
                    .map(|field| FieldDto {
                        id: field.id.clone(),
                        field_type: field.field_type,
                        title: if field.title.trim().is_empty() {
                            field.id.clone()
                        } else {
                            field.title.clone()
                        },
                        description: field.description.clone(),
                        placeholder: field.placeholder.clone(),
                        required: field.required,
                        max_length: ProductForm::max_length(field),
                        options: field.options.clone(),
                    })
                    .collect(),
            },
            answers: opened
                .line
                .answers
                .as_ref()
                .map(|answers| answers.to_submitted())
                .unwrap_or_default(),
        }
    }
}

/// `GET /api/commerce/cart/items/{line}/form`.
pub(crate) async fn open(
    State(state): State<AppState>,
    Path(line): Path<String>,
    headers: HeaderMap,
) -> Response {
    let line = match line_from(&line) {
        Ok(line) => line,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::OpenForm, &CartServiceError::NoCart);
    };
    match state.carts.line_form(&token, &line).await {
        Ok(opened) => Json(LineFormDto::new(&opened)).into_response(),
        Err(error) => failure(CartCall::OpenForm, &error),
    }
}

/// `PUT /api/commerce/cart/items/{line}/form {form: {fieldId: text}}`.
pub(crate) async fn update(
    State(state): State<AppState>,
    Path(line): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let parsed = object(&body).and_then(|map| Ok((line_from(&line)?, answers_field(&map)?)));
    let (line, answers) = match parsed {
        Ok(parsed) => parsed,
        Err(error) => return error.into_response(),
    };
    let Some(token) = request_token(&headers) else {
        return failure(CartCall::UpdateForm, &CartServiceError::NoCart);
    };
    let now = now();
    match state
        .carts
        .update_answers(&token, &line, &answers, now)
        .await
    {
        Ok(update) => Json(CartAnswer::new(&update.cart, &update.warnings, now)).into_response(),
        Err(error) => failure(CartCall::UpdateForm, &error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::cart::{CartState, Purchasable, Stock, Timestamp};
    use vitrine_core::catalog::Sku;
    use vitrine_core::enums::ProductType;
    use vitrine_core::site::FormField;

    #[test]
    fn the_line_form_dto_keeps_its_wire_shape() {
        let field = |id: &str, field_type: FormFieldType, options: &[&str]| FormField {
            id: id.into(),
            field_type,
            title: id.replace('-', " "),
            description: "Shown under the title.".into(),
            placeholder: String::new(),
            required: field_type == FormFieldType::Radio,
            options: options.iter().map(|option| (*option).to_owned()).collect(),
            max_length: (field_type == FormFieldType::Text).then_some(20),
        };
        let form = ProductForm::new(
            "Gift options",
            vec![
                field("engraving", FormFieldType::Text, &[]),
                field("gift-wrap", FormFieldType::Radio, &["None", "Linen"]),
            ],
        )
        .unwrap();
        let mut cart = CartState::new("cart", "site", Timestamp(0));
        let jug = Purchasable::new(
            "jug",
            "Moss Pouring Jug",
            ProductType::Physical,
            Sku::parse("JUG").unwrap(),
            6400,
            Stock::Unlimited,
        );
        let answers = form
            .read(&[("gift-wrap".to_owned(), "Linen".to_owned())].into())
            .unwrap();
        cart.add_item_with_answers(&jug, 1, Some(answers)).unwrap();
        let opened = LineForm {
            line: cart.entries[0].clone(),
            form,
        };
        insta::assert_snapshot!(serde_json::to_string_pretty(&LineFormDto::new(&opened)).unwrap());
    }
}
