//! The cart API's JSON: DTOs apart from the core's types (a rename in the core is not a
//! silent change of the wire), request parsing that names the offending field, and the
//! mapping of the core's failures to statuses and the cart texts of 000 s8.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};
use vitrine_core::cart::{
    CartError, CartWarning, CouponKind, MAX_LINE_QUANTITY, ShippingOption, ShippingRate,
    ShoppingCart, Timestamp, indicator,
};
use vitrine_core::catalog::{FormAnswers, SubmittedAnswers};
use vitrine_core::checkout::CartServiceError;
use vitrine_core::money::{FormatOptions, Locale, format};

use crate::render::commerce_pages::money_text;

/// The cart texts of 000 s8, verbatim.
pub(crate) use vitrine_core::cart::texts::{
    NOTHING_IN_CART, UNABLE_TO_ADD_ITEM as UNABLE_TO_ADD,
    UNABLE_TO_REMOVE_ITEM as UNABLE_TO_REMOVE, UNABLE_TO_UPDATE_QUANTITY as UNABLE_TO_UPDATE,
};

/// What an unknown coupon code answers; the specification names no text for it.
pub(crate) const UNKNOWN_COUPON: &str = "This coupon code is not valid.";

/// The shopping cart of 000 s3 on the wire, plus the indicator's figures.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CartDto {
    id: String,
    website_id: String,
    order_id: String,
    created: i64,
    is_purchased: bool,
    entries: Vec<EntryDto>,
    shipping_options: Vec<ShippingOptionDto>,
    applicable_tax_rules: Vec<TaxRuleDto>,
    coupons: Vec<CouponDto>,
    valid_coupons: Vec<String>,
    invalid_coupons: Vec<InvalidCouponDto>,
    selected_shipping_option: Option<ShippingOptionDto>,
    shipping_location: Option<LocationDto>,
    subtotal_cents: i64,
    tax_cents: i64,
    shipping_cost_cents: i64,
    discount_cents: i64,
    grand_total_cents: i64,
    subtotal_amount: MoneyDto,
    total_quantity: u32,
    has_digital: bool,
    purely_digital: bool,
    requires_shipping: bool,
    /// Seconds left of the checkout hold, for the countdown; null when nothing is held.
    reservation_seconds_left: Option<i64>,
    /// The totals as the shopper reads them, formatted by the server's money rules.
    totals_text: TotalsTextDto,
    indicator: IndicatorDto,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TotalsTextDto {
    subtotal: String,
    discount: String,
    shipping_cost: String,
    tax: String,
    grand_total: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryDto {
    /// What the cart calls name this line by: its SKU, or its SKU and its answers'
    /// fingerprint when the same variant may be on several lines.
    line_id: String,
    product_id: String,
    product_name: String,
    sku: String,
    /// The answers to the product's form, in the form's order; null when the product asks
    /// for nothing, so a line offers to edit only a real form.
    answers: Option<Vec<AnswerDto>>,
    quantity: u32,
    unit_price_cents: i64,
    line_total_cents: i64,
    unit_price_text: String,
    line_total_text: String,
}

/// One answer to a product's form, with the question as the shopper read it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AnswerDto {
    field_id: String,
    title: String,
    value: String,
}

pub(crate) fn answer_dtos(answers: &FormAnswers) -> Vec<AnswerDto> {
    answers
        .iter()
        .map(|answer| AnswerDto {
            field_id: answer.field_id.clone(),
            title: answer.title.clone(),
            value: answer.value.clone(),
        })
        .collect()
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ShippingOptionDto {
    id: String,
    name: String,
    rate_type: &'static str,
    /// What this option costs the cart as it is, formatted.
    cost_text: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TaxRuleDto {
    name: String,
    rate_basis_points: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CouponDto {
    code: String,
    kind: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct InvalidCouponDto {
    code: String,
    reason: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LocationDto {
    country: String,
    region: String,
    postal_code: String,
}

/// A money value: minor units, the currency code and the text a shopper reads.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MoneyDto {
    value: i64,
    currency: &'static str,
    text: String,
}

/// The cart indicator's figures (000 s3, 001 s9), computed by the core's rules.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct IndicatorDto {
    items: u32,
    display_count: String,
    label: String,
    subtotal: String,
}

#[derive(Debug, Serialize)]
pub(crate) struct WarningDto {
    code: String,
    target: String,
    message: String,
}

impl From<&CartWarning> for WarningDto {
    fn from(warning: &CartWarning) -> Self {
        // The code's wire name is its serde name (SCREAMING_SNAKE_CASE).
        let code = serde_json::to_value(warning.code)
            .ok()
            .and_then(|value| value.as_str().map(str::to_owned))
            .unwrap_or_default();
        Self {
            code,
            target: warning.target.clone(),
            message: warning.message.clone(),
        }
    }
}

fn option_dto(option: &ShippingOption, cart: &ShoppingCart) -> ShippingOptionDto {
    ShippingOptionDto {
        id: option.id.clone(),
        name: option.name.clone(),
        rate_type: match option.rate {
            ShippingRate::FlatRate { .. } => "FLAT_RATE",
            ShippingRate::ByWeight { .. } => "BY_WEIGHT",
        },
        cost_text: money_text(
            option.cost_cents(cart.shipped_weight_thousandths()),
            cart.subtotal_amount.currency,
        ),
    }
}

impl CartDto {
    pub(crate) fn new(cart: &ShoppingCart, now: Timestamp) -> Self {
        let subtotal_text = format(
            cart.subtotal_amount,
            &Locale::default(),
            FormatOptions::default(),
        );
        let currency = cart.subtotal_amount.currency;
        let reservation_seconds_left =
            crate::render::commerce_pages::hold_seconds_left(cart.reserved_until, now);
        Self {
            id: cart.id.clone(),
            website_id: cart.website_id.clone(),
            order_id: cart.order_id.clone(),
            created: cart.created.millis(),
            is_purchased: cart.is_purchased,
            entries: cart
                .entries
                .iter()
                .map(|entry| EntryDto {
                    line_id: entry.line_id().to_string(),
                    product_id: entry.product_id.clone(),
                    product_name: entry.product_name.clone(),
                    sku: entry.sku.as_str().to_owned(),
                    answers: entry.answers.as_ref().map(answer_dtos),
                    quantity: entry.quantity,
                    unit_price_cents: entry.unit_price_cents,
                    line_total_cents: entry.line_total_cents(),
                    unit_price_text: money_text(entry.unit_price_cents, currency),
                    line_total_text: money_text(entry.line_total_cents(), currency),
                })
                .collect(),
            shipping_options: cart
                .shipping_options
                .iter()
                .map(|option| option_dto(option, cart))
                .collect(),
            applicable_tax_rules: cart
                .applicable_tax_rules
                .iter()
                .map(|rule| TaxRuleDto {
                    name: rule.name.clone(),
                    rate_basis_points: rule.rate_basis_points,
                })
                .collect(),
            coupons: cart
                .coupons
                .iter()
                .map(|applied| CouponDto {
                    code: applied.coupon.code.as_str().to_owned(),
                    kind: match applied.coupon.kind {
                        CouponKind::Percentage { .. } => "PERCENTAGE",
                        CouponKind::FixedAmount { .. } => "FIXED_AMOUNT",
                        CouponKind::FreeShipping => "FREE_SHIPPING",
                    },
                })
                .collect(),
            valid_coupons: cart
                .valid_coupons
                .iter()
                .map(|code| code.as_str().to_owned())
                .collect(),
            invalid_coupons: cart
                .invalid_coupons
                .iter()
                .map(|invalid| InvalidCouponDto {
                    code: invalid.code.as_str().to_owned(),
                    reason: invalid.reason.message().to_owned(),
                })
                .collect(),
            selected_shipping_option: cart
                .selected_shipping_option
                .as_ref()
                .map(|option| option_dto(option, cart)),
            shipping_location: cart.shipping_location.as_ref().map(|location| LocationDto {
                country: location.country.clone(),
                region: location.region.clone(),
                postal_code: location.postal_code.clone(),
            }),
            subtotal_cents: cart.subtotal_cents,
            tax_cents: cart.tax_cents,
            shipping_cost_cents: cart.shipping_cost_cents,
            discount_cents: cart.discount_cents,
            grand_total_cents: cart.grand_total_cents,
            subtotal_amount: MoneyDto {
                value: cart.subtotal_amount.amount_minor,
                currency: cart.subtotal_amount.currency.code(),
                text: subtotal_text.clone(),
            },
            total_quantity: cart.total_quantity,
            has_digital: cart.has_digital,
            purely_digital: cart.purely_digital,
            requires_shipping: cart.requires_shipping,
            reservation_seconds_left,
            totals_text: TotalsTextDto {
                subtotal: money_text(cart.subtotal_cents, currency),
                discount: money_text(cart.discount_cents, currency),
                shipping_cost: money_text(cart.shipping_cost_cents, currency),
                tax: money_text(cart.tax_cents, currency),
                grand_total: money_text(cart.grand_total_cents, currency),
            },
            indicator: IndicatorDto {
                items: cart.total_quantity,
                display_count: indicator::display_count(cart.total_quantity),
                label: indicator::spoken_label(cart.total_quantity),
                subtotal: subtotal_text,
            },
        }
    }
}

/// The answer to every cart call: the cart, and the call's own warnings (stock) with the
/// cart's standing ones (coupons, minimum subtotal).
#[derive(Debug, Serialize)]
pub(crate) struct CartAnswer {
    pub(crate) cart: CartDto,
    pub(crate) warnings: Vec<WarningDto>,
}

impl CartAnswer {
    pub(crate) fn new(cart: &ShoppingCart, call_warnings: &[CartWarning], now: Timestamp) -> Self {
        Self {
            cart: CartDto::new(cart, now),
            warnings: call_warnings
                .iter()
                .chain(&cart.warnings)
                .map(WarningDto::from)
                .collect(),
        }
    }
}

/// A request the API refuses before calling the core; `field` names what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldError {
    pub(crate) field: &'static str,
    pub(crate) message: String,
}

impl IntoResponse for FieldError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "field": self.field });
        (StatusCode::BAD_REQUEST, Json(body)).into_response()
    }
}

/// The JSON object of a request body.
pub(crate) fn object(body: &[u8]) -> Result<Map<String, Value>, FieldError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(FieldError {
            field: "body",
            message: "The request body must be a JSON object.".into(),
        }),
    }
}

/// A required string field.
pub(crate) fn string_field(
    map: &Map<String, Value>,
    field: &'static str,
) -> Result<String, FieldError> {
    match map.get(field) {
        Some(Value::String(text)) => Ok(text.clone()),
        _ => Err(FieldError {
            field,
            message: format!("{field} must be a string."),
        }),
    }
}

/// The optional `form` field: the answers to the product's form, field id to text.
pub(crate) fn answers_field(map: &Map<String, Value>) -> Result<SubmittedAnswers, FieldError> {
    const FIELD: &str = "form";
    let wrong = || FieldError {
        field: FIELD,
        message: "form must be an object of field ids to texts.".into(),
    };
    match map.get(FIELD) {
        None | Some(Value::Null) => Ok(SubmittedAnswers::new()),
        Some(Value::Object(answers)) => answers
            .iter()
            .map(|(id, value)| match value {
                Value::String(text) => Ok((id.clone(), text.clone())),
                _ => Err(wrong()),
            })
            .collect(),
        Some(_) => Err(wrong()),
    }
}

/// A required quantity: a whole number from 0 to the line limit.
pub(crate) fn quantity_field(map: &Map<String, Value>) -> Result<u32, FieldError> {
    const FIELD: &str = "quantity";
    let number = match map.get(FIELD) {
        Some(Value::Number(number)) => number,
        _ => {
            return Err(FieldError {
                field: FIELD,
                message: "quantity must be a number.".into(),
            });
        }
    };
    number
        .as_u64()
        .and_then(|value| u32::try_from(value).ok())
        .filter(|value| *value <= MAX_LINE_QUANTITY)
        .ok_or(FieldError {
            field: FIELD,
            message: format!("quantity must be a whole number from 0 to {MAX_LINE_QUANTITY}."),
        })
}

/// Which cart call failed, which chooses the text the shopper reads.
#[derive(Debug, Clone, Copy)]
pub(crate) enum CartCall {
    Add,
    Update,
    Remove,
    Coupon,
    /// The shipping location or option.
    Shipping,
    /// Opening a line's product form.
    OpenForm,
    /// Saving a line's answers.
    UpdateForm,
}

impl CartCall {
    fn text(self) -> &'static str {
        match self {
            Self::Add => UNABLE_TO_ADD,
            Self::Update => UNABLE_TO_UPDATE,
            Self::Remove => UNABLE_TO_REMOVE,
            Self::Coupon => vitrine_core::cart::texts::PLEASE_TRY_AGAIN,
            Self::Shipping => vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION,
            Self::OpenForm => vitrine_core::cart::texts::UNABLE_TO_OPEN_FORM,
            Self::UpdateForm => vitrine_core::cart::texts::UNABLE_TO_UPDATE_FORM,
        }
    }
}

/// The status, the shopper's text and a machine-readable reason for a failed call. Causes
/// from the store are logged, never answered.
pub(crate) fn failure(call: CartCall, error: &CartServiceError) -> Response {
    let (status, reason, target) = match error {
        CartServiceError::UnknownVariant { sku, .. } => {
            (StatusCode::NOT_FOUND, "UNKNOWN_VARIANT", sku.clone())
        }
        CartServiceError::NoCart => (StatusCode::NOT_FOUND, "NO_CART", String::new()),
        // Coupon refusals are 400s: the request layer hands a 400's body to the caller, so
        // the cart can show the reason.
        CartServiceError::UnknownCoupon(code) => {
            (StatusCode::BAD_REQUEST, "UNKNOWN_COUPON", code.clone())
        }
        // Refused answers are a 400 with a message per field, which the request layer hands
        // to the caller so each message can stand at its field.
        CartServiceError::InvalidAnswers(invalid) => {
            let body = serde_json::json!({
                "error": vitrine_core::cart::texts::UPDATE_MISSING_INFORMATION,
                "reason": "INVALID_ANSWERS",
                "target": invalid.errors.keys().next().cloned().unwrap_or_default(),
                "errors": invalid.errors,
            });
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
        CartServiceError::NoProductForm(line) => {
            (StatusCode::NOT_FOUND, "NO_FORM", line.to_string())
        }
        CartServiceError::Cart(CartError::CouponNotApplicable { code, reason }) => {
            let body = serde_json::json!({
                "error": reason.message(),
                "reason": "COUPON_NOT_APPLICABLE",
                "target": code.as_str(),
            });
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
        CartServiceError::Cart(CartError::OutOfStock(sku)) => (
            StatusCode::CONFLICT,
            "OUT_OF_STOCK",
            sku.as_str().to_owned(),
        ),
        CartServiceError::Cart(CartError::NotInCart(sku)) => (
            StatusCode::NOT_FOUND,
            "NOT_IN_CART",
            sku.as_str().to_owned(),
        ),
        CartServiceError::Cart(CartError::LineNotInCart(line)) => {
            (StatusCode::NOT_FOUND, "NOT_IN_CART", line.to_string())
        }
        CartServiceError::Cart(CartError::AmbiguousLine(sku)) => (
            StatusCode::CONFLICT,
            "AMBIGUOUS_LINE",
            sku.as_str().to_owned(),
        ),
        CartServiceError::Cart(CartError::ZeroQuantity) => (
            StatusCode::BAD_REQUEST,
            "ZERO_QUANTITY",
            "quantity".to_owned(),
        ),
        CartServiceError::Cart(CartError::AlreadyPurchased) => {
            (StatusCode::CONFLICT, "ALREADY_PURCHASED", String::new())
        }
        // A 400, so the request layer hands the reason to the product page.
        CartServiceError::Cart(CartError::SubscriptionNotAlone) => {
            let body = serde_json::json!({
                "error": vitrine_core::cart::SUBSCRIPTION_ALONE,
                "reason": "SUBSCRIPTION_ALONE",
                "target": "",
            });
            return (StatusCode::BAD_REQUEST, Json(body)).into_response();
        }
        // 400s, so the request layer hands the cart's text ("Unable to add item", "Unable
        // to update quantity") to the shopper; the cart itself is left as it was.
        CartServiceError::Cart(CartError::TooManyLines) => {
            (StatusCode::BAD_REQUEST, "TOO_MANY_LINES", String::new())
        }
        CartServiceError::Cart(CartError::TotalTooLarge) => (
            StatusCode::BAD_REQUEST,
            "TOTAL_TOO_LARGE",
            "subtotal".to_owned(),
        ),
        CartServiceError::Cart(other) => (StatusCode::CONFLICT, "REFUSED", other.to_string()),
        CartServiceError::Repository(cause) => {
            tracing::error!(error = %cause, "a cart call failed in the store");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "UNAVAILABLE",
                String::new(),
            )
        }
    };
    let message = match (reason, call) {
        (
            "NO_CART",
            CartCall::Update | CartCall::Remove | CartCall::Coupon | CartCall::Shipping,
        ) => NOTHING_IN_CART,
        ("UNKNOWN_COUPON", _) => UNKNOWN_COUPON,
        _ => call.text(),
    };
    let body = serde_json::json!({ "error": message, "reason": reason, "target": target });
    (status, Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::cart::{
        CartState, Coupon, CouponCode, CouponUsage, Purchasable, ShippingLocation, Stock,
        StoreRules, TaxRule,
    };
    use vitrine_core::catalog::Sku;
    use vitrine_core::enums::ProductType;

    /// A cart with a line, a coupon, shipping and tax, so every DTO field is filled.
    fn full_cart() -> ShoppingCart {
        let now = Timestamp(1_700_000_000_000);
        let rules = StoreRules {
            shipping_options: vec![ShippingOption {
                id: "standard".into(),
                name: "Standard shipping".into(),
                rate: ShippingRate::FlatRate { cost_cents: 500 },
            }],
            tax_rules: vec![TaxRule {
                name: "New York".into(),
                country: "US".into(),
                region: "NY".into(),
                rate_basis_points: 800,
                applies_to_shipping: false,
            }],
            ..StoreRules::default()
        };
        let mut cart = CartState::new("cart-1", "site-1", now);
        let mug = Purchasable {
            weight_thousandths: 400,
            ..Purchasable::new(
                "mug",
                "Sea Glass Mug",
                ProductType::Physical,
                Sku::parse("MUG-S").unwrap(),
                2800,
                Stock::Limited(5),
            )
        };
        let engraving = vitrine_core::catalog::FormAnswer {
            field_id: "engraving".into(),
            title: "Name to engrave".into(),
            value: "Ada".into(),
        };
        cart.add_item_with_answers(&mug, 2, Some(FormAnswers::new(vec![engraving])))
            .unwrap();
        let coupon = Coupon::new(
            CouponCode::parse("WELCOME10").unwrap(),
            CouponKind::Percentage { basis_points: 1000 },
            None,
            None,
        )
        .unwrap();
        cart.apply_coupon(coupon, CouponUsage::default(), now)
            .unwrap();
        cart.select_shipping_option("standard", &rules.shipping_options)
            .unwrap();
        cart.set_shipping_location(ShippingLocation::new("US", "NY", "10001"))
            .unwrap();
        cart.reserved_until = Some(now.plus_seconds(90));
        cart.price(&rules, now)
    }

    #[test]
    fn the_cart_dto_keeps_its_wire_shape() {
        let cart = full_cart();
        let answer = CartAnswer::new(&cart, &[], Timestamp(1_700_000_000_000));
        insta::assert_snapshot!(serde_json::to_string_pretty(&answer).unwrap());
    }
}
