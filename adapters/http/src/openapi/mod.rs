//! The API description: an OpenAPI 3.1 document of every `/api` route, generated with utoipa
//! from the descriptions in this module and served at `GET /api/openapi.json`.
//!
//! Each operation is described once, in `forms.rs`, `analytics.rs`, `commerce.rs`, `people.rs`
//! or `places.rs`, by a
//! `#[utoipa::path]` on a function that only carries the description; what every operation
//! shares is added in one place ([`SharedAnswers`]): the crumb on state-changing calls, and
//! the answers any handler can give (a refused crumb, a rate limit, a store that is away,
//! a body the framework could not read). The router test `openapi` checks the document
//! against the router's route table both ways, and schemathesis (`cargo xtask api-fuzz`)
//! checks the live server's answers against it.

mod analytics;
mod commerce;
mod forms;
mod maps;
mod order_aftercare;
mod owner;
mod owner_site;
mod people;
mod places;
mod schemas;

use std::sync::LazyLock;

use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::routing::get;
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, HttpAuthScheme, SecurityRequirement, SecurityScheme,
};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

use crate::shared::crumb::{CRUMB_COOKIE, CRUMB_HEADER};
use crate::shared::route_table::Routes;

/// Where the document is served.
pub const OPENAPI_PATH: &str = "/api/openapi.json";

/// The security scheme names the operations refer to.
const CRUMB_COOKIE_SCHEME: &str = "crumbCookie";
const CRUMB_HEADER_SCHEME: &str = "crumbHeader";
pub(crate) const OWNER_TOKEN_SCHEME: &str = "ownerToken";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Vitrine API",
        description = "The JSON API that a Vitrine storefront's pages call: forms, analytics, \
                       consent, widgets, the cart and reviews. State-changing calls need the \
                       crumb: the `crumb` cookie the server sets, repeated in the \
                       `X-CSRF-Token` header (or the `crumb` query parameter)."
    ),
    paths(
        forms::openapi_document,
        forms::issue_crumb,
        forms::get_widget_rendering,
        forms::issue_form_key,
        forms::save_form_submission,
        analytics::record_hit,
        analytics::analytics_report,
        analytics::button_click,
        analytics::button_render,
        analytics::form_render,
        analytics::overlay,
        analytics::record_quick_view,
        analytics::record_event,
        analytics::events_service,
        analytics::track,
        analytics::record_javascript_errors,
        analytics::trace,
        analytics::performance_settings,
        analytics::performance_records,
        analytics::record_consent_receipt,
        analytics::export_consent_receipts,
        analytics::record_conversion,
        commerce::show_cart,
        commerce::add_to_cart,
        commerce::change_quantity,
        commerce::remove_line,
        commerce::open_line_form,
        commerce::update_line_form,
        commerce::apply_coupon,
        commerce::remove_coupon,
        commerce::set_shipping_location,
        commerce::select_shipping_option,
        commerce::submit_review,
        commerce::create_review_request,
        commerce::failed_refunds,
        order_aftercare::order_aftercare,
        order_aftercare::refund_order,
        order_aftercare::fulfil_order,
        order_aftercare::cancel_order,
        commerce::stripe_webhook,
        people::sign_in,
        people::sign_out,
        people::account,
        people::sign_up,
        people::delete_account,
        people::confirm,
        people::request_reset,
        people::reset_password,
        people::request_email_change,
        people::confirm_email_change,
        people::sign_out_everywhere,
        owner_site::show_header_footer,
        owner_site::replace_header_footer,
        owner_site::multilingual_settings,
        owner_site::multilingual_status,
        owner_site::publish_languages,
        owner_site::disconnect_provider,
        owner::owner_context,
        owner::logout,
        owner::dashboard,
        places::places_autocomplete,
        places::places_details,
        maps::static_map,
    ),
    components(schemas(schemas::ErrorAnswer)),
    modifiers(&SharedAnswers),
    tags(
        (name = "meta", description = "This description"),
        (name = "forms", description = "Form submissions (000 s7) and block widgets"),
        (name = "analytics", description = "Census hits and events, logs and performance records"),
        (name = "consent", description = "Cookie consent receipts and ad-pixel conversions"),
        (name = "commerce", description = "The shopper's cart and product reviews"),
        (name = "site users", description = "Site-user accounts and sessions (001 s3, s7)"),
        (name = "owner", description = "The signed-in owner on the live site, the site's header and footer, and its languages (000 s2, s3; 001 s7)"),
        (name = "places", description = "The map block's place search (001 s7)"),
        (name = "maps", description = "The map block's static map image, composed on this server"),
    )
)]
struct ApiDoc;

/// The document, built once.
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

static DOCUMENT_JSON: LazyLock<String> = LazyLock::new(|| {
    document()
        .to_pretty_json()
        .expect("the API description serialises")
});

pub(crate) fn routes() -> Routes {
    Routes::new().route(OPENAPI_PATH, get(serve_document))
}

async fn serve_document() -> impl IntoResponse {
    ([(CONTENT_TYPE, "application/json")], DOCUMENT_JSON.as_str())
}

/// What every operation shares, added to each so no description can forget it.
struct SharedAnswers;

impl Modify for SharedAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            CRUMB_COOKIE_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                CRUMB_COOKIE,
                "The crumb cookie the server sets on any page or API answer.",
            ))),
        );
        components.add_security_scheme(
            CRUMB_HEADER_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-CSRF-Token",
                "The crumb cookie's value repeated (or as the `crumb` query parameter).",
            ))),
        );
        components.add_security_scheme(
            OWNER_TOKEN_SCHEME,
            SecurityScheme::Http(
                utoipa::openapi::security::HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An owner API key (`vk_...`, made at /config/ with scopes) or the \
                         server's VITRINE_OWNER_TOKEN, which acts as an admin key; a signed-in \
                         owner's session cookie is accepted too.",
                    ))
                    .build(),
            ),
        );
        debug_assert_eq!(CRUMB_HEADER, "x-csrf-token");
        for (path, item) in openapi.paths.paths.iter_mut() {
            // The payment provider's webhook is signed instead (see the crumb guard).
            let signed = path == crate::commerce::stripe_webhook::STRIPE_WEBHOOK_PATH;
            let changing = [
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in changing.into_iter().flatten() {
                if !signed {
                    require_crumb(operation);
                }
                shared_answers(operation);
            }
            for operation in [&mut item.get].into_iter().flatten() {
                shared_answers(operation);
            }
        }
    }
}

/// A state-changing call needs both halves of the crumb, and answers 401 without them.
fn require_crumb(operation: &mut Operation) {
    let with_crumb = |requirement: SecurityRequirement| {
        requirement
            .add(CRUMB_COOKIE_SCHEME, Vec::<String>::new())
            .add(CRUMB_HEADER_SCHEME, Vec::<String>::new())
    };
    // Requirements in one object must all be met; an owner's call needs the crumb as well.
    let existing = operation.security.take().unwrap_or_default();
    operation.security = Some(if existing.is_empty() {
        vec![with_crumb(SecurityRequirement::default())]
    } else {
        existing.into_iter().map(with_crumb).collect()
    });
    add_json_answer(
        operation,
        "401",
        "The crumb is missing or does not match the cookie; a fresh crumb cookie comes with \
         this answer, and `crumbFail` is true.",
    );
}

/// Answers any operation can give, whatever its handler does.
fn shared_answers(operation: &mut Operation) {
    add_json_answer(
        operation,
        "429",
        "Too many calls from this client; `Retry-After` says when to call again.",
    );
    add_json_answer(
        operation,
        "503",
        "A store (the database or Redis) is away for a moment; nothing was done, and the \
         same call may be sent again after `Retry-After`.",
    );
    let has_body = operation.request_body.is_some();
    let has_url_parameter = operation.parameters.iter().flatten().any(|parameter| {
        matches!(parameter, RefOr::T(parameter)
            if matches!(parameter.parameter_in,
                utoipa::openapi::path::ParameterIn::Path | utoipa::openapi::path::ParameterIn::Query))
    });
    if has_body || has_url_parameter {
        // The framework answers in plain text before a handler runs when it cannot read the
        // request at all: a body that is not UTF-8 where text is needed, or a path segment or
        // query string that does not decode.
        add_text_answer(
            operation,
            "400",
            "The request is malformed; the body says why.",
        );
    }
    if has_body {
        add_text_answer(
            operation,
            "413",
            "The body is larger than the server accepts.",
        );
    }
}

fn add_json_answer(operation: &mut Operation, status: &str, description: &str) {
    let content = ContentBuilder::new()
        .schema(Some(RefOr::<Schema>::Ref(Ref::from_schema_name(
            "ErrorAnswer",
        ))))
        .build();
    add_answer(operation, status, description, "application/json", content);
}

fn add_text_answer(operation: &mut Operation, status: &str, description: &str) {
    let content = ContentBuilder::new()
        .schema(Some(RefOr::T(Schema::Object(
            ObjectBuilder::new().schema_type(Type::String).build(),
        ))))
        .build();
    add_answer(operation, status, description, "text/plain", content);
}

/// Adds `content` to the answer `status`, creating the answer when the operation has none.
fn add_answer(
    operation: &mut Operation,
    status: &str,
    description: &str,
    content_type: &str,
    content: utoipa::openapi::Content,
) {
    let answer = operation
        .responses
        .responses
        .entry(status.to_owned())
        .or_insert_with(|| RefOr::T(ResponseBuilder::new().description(description).build()));
    if let RefOr::T(answer) = answer {
        answer
            .content
            .entry(content_type.to_owned())
            .or_insert(RefOr::T(content));
    }
}
