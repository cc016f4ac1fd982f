//! Descriptions of the cart calls and reviews. The cart is found by the `vitrine_cart`
//! cookie or the `X-Cart-Token` header; the first item added makes one and sets both.

#![allow(dead_code)]

use super::schemas::{
    AddToCart, CartAnswer, CouponBody, ErrorAnswer, FailedRefunds, LineAnswers, LineForm, Quantity,
    ReviewBody, ReviewRequestBody, ReviewRequestCreated, ReviewThanks, ShippingLocation,
    ShippingOption, StripeEventReceived,
};

/// The shopper's cart (an empty one when there is none).
#[utoipa::path(
    get,
    path = "/api/commerce/cart",
    tag = "commerce",
    responses((status = 200, description = "The cart", body = CartAnswer)),
)]
fn show_cart() {}

/// Adds a product variant, with its product form's answers when it has a form.
#[utoipa::path(
    post,
    path = "/api/commerce/cart/items",
    tag = "commerce",
    request_body(content = AddToCart, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart with the item", body = CartAnswer),
        (status = 400, description = "A field is missing or invalid (`field`), the answers are invalid, the cart already has 100 lines (`TOO_MANY_LINES`) or would pass its total limit (`TOTAL_TOO_LARGE`)", body = ErrorAnswer),
        (status = 404, description = "No such product variant", body = ErrorAnswer),
        (status = 409, description = "Out of stock, or the cart is already bought", body = ErrorAnswer),
    ),
)]
fn add_to_cart() {}

/// Changes a line's quantity (0 removes it).
#[utoipa::path(
    put,
    path = "/api/commerce/cart/items/{line}",
    tag = "commerce",
    params(("line" = String, Path, description = "The cart line's id")),
    request_body(content = Quantity, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a quantity or not a line id", body = ErrorAnswer),
        (status = 404, description = "No cart, or no such line", body = ErrorAnswer),
        (status = 409, description = "Not enough stock", body = ErrorAnswer),
    ),
)]
fn change_quantity() {}

/// Removes a line.
#[utoipa::path(
    delete,
    path = "/api/commerce/cart/items/{line}",
    tag = "commerce",
    params(("line" = String, Path, description = "The cart line's id")),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a line id", body = ErrorAnswer),
        (status = 404, description = "No cart, or no such line", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn remove_line() {}

/// A line's product form, to edit its answers.
#[utoipa::path(
    get,
    path = "/api/commerce/cart/items/{line}/form",
    tag = "commerce",
    params(("line" = String, Path, description = "The cart line's id")),
    responses(
        (status = 200, description = "The form and the answers so far", body = LineForm),
        (status = 400, description = "Not a line id", body = ErrorAnswer),
        (status = 404, description = "No cart, no such line, or a product without a form", body = ErrorAnswer),
    ),
)]
fn open_line_form() {}

/// Replaces a line's product-form answers.
#[utoipa::path(
    put,
    path = "/api/commerce/cart/items/{line}/form",
    tag = "commerce",
    params(("line" = String, Path, description = "The cart line's id")),
    request_body(content = LineAnswers, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a line id, or invalid answers (`errors`)", body = ErrorAnswer),
        (status = 404, description = "No cart, no such line, or a product without a form", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn update_line_form() {}

/// Applies a coupon.
#[utoipa::path(
    post,
    path = "/api/commerce/cart/coupons",
    tag = "commerce",
    request_body(content = CouponBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a coupon code, an unknown coupon, or one that does not apply", body = ErrorAnswer),
        (status = 404, description = "No cart", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn apply_coupon() {}

/// Removes a coupon.
#[utoipa::path(
    delete,
    path = "/api/commerce/cart/coupons/{code}",
    tag = "commerce",
    params(("code" = String, Path, description = "The coupon code")),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a coupon code", body = ErrorAnswer),
        (status = 404, description = "No cart", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn remove_coupon() {}

/// Where the order ships, for shipping options and tax.
#[utoipa::path(
    put,
    path = "/api/commerce/cart/shipping-location",
    tag = "commerce",
    request_body(content = ShippingLocation, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not a location", body = ErrorAnswer),
        (status = 404, description = "No cart", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn set_shipping_location() {}

/// Chooses one of the cart's shipping options.
#[utoipa::path(
    put,
    path = "/api/commerce/cart/shipping-option",
    tag = "commerce",
    request_body(content = ShippingOption, content_type = "application/json"),
    responses(
        (status = 200, description = "The cart", body = CartAnswer),
        (status = 400, description = "Not an option id, or not an option of this cart", body = ErrorAnswer),
        (status = 404, description = "No cart", body = ErrorAnswer),
        (status = 409, description = "The cart is already bought", body = ErrorAnswer),
    ),
)]
fn select_shipping_option() {}

/// A review of a purchased product, through the token of its review request.
#[utoipa::path(
    post,
    path = "/api/commerce/reviews",
    tag = "commerce",
    request_body(content = ReviewBody, content_type = "application/json"),
    responses(
        (status = 200, description = "Thanks", body = ReviewThanks),
        (status = 400, description = "Refused, with the reason (`reason`)", body = ErrorAnswer),
        (status = 500, description = "The review could not be stored", body = ErrorAnswer),
    ),
)]
fn submit_review() {}

/// A review request for an order, for the owner to send to the shopper.
#[utoipa::path(
    post,
    path = "/api/commerce/orders/{id}/review-request",
    tag = "commerce",
    security(("ownerToken" = [])),
    params(("id" = String, Path, description = "The order's id")),
    request_body(content = ReviewRequestBody, content_type = "application/json"),
    responses(
        (status = 201, description = "The request's token and link", body = ReviewRequestCreated),
        (status = 400, description = "Not `{authorName}`, or the order cannot be reviewed", body = ErrorAnswer),
        (status = 404, description = "No owner credential holding the commerce permission, or no such order", body = ErrorAnswer),
    ),
)]
fn create_review_request() {}

/// The refunds the payment provider did not make, for the owner to settle by hand: orders and
/// contributions whose charge was asked back when they could not be placed.
#[utoipa::path(
    get,
    path = "/api/commerce/failed-refunds",
    tag = "commerce",
    security(("ownerToken" = [])),
    responses(
        (status = 200, description = "Every failed refund, oldest first", body = FailedRefunds),
        (status = 404, description = "The request carries no owner credential (an API key, the owner token or an owner session) holding the commerce permission", body = ErrorAnswer),
    ),
)]
fn failed_refunds() {}

/// Stripe's webhook: what became of a charge (`payment_intent.succeeded`,
/// `payment_intent.payment_failed`, `charge.refunded`, `charge.dispute.created`). Needs no
/// crumb: the `Stripe-Signature` header (HMAC-SHA256 with the endpoint's signing secret over
/// the timestamp and the body, at most five minutes old) is the check. Each event is taken
/// once; other kinds are acknowledged and ignored.
#[utoipa::path(
    post,
    path = "/api/commerce/stripe/webhook",
    tag = "commerce",
    params(("Stripe-Signature" = String, Header, description = "`t=<Unix seconds>,v1=<hex HMAC-SHA256>`, one `v1` per signing secret")),
    request_body(content = Object, content_type = "application/json", description = "A Stripe event, as Stripe sends it"),
    responses(
        (status = 200, description = "The event was taken (or taken before, or is of a kind the shop ignores)", body = StripeEventReceived),
        (status = 400, description = "The signature is missing, wrong or too old, or the signed event cannot be read", body = ErrorAnswer),
        (status = 404, description = "The server has no webhook signing secret (VITRINE_STRIPE_WEBHOOK_SECRET)", body = ErrorAnswer),
    ),
)]
fn stripe_webhook() {}
