//! `GET /config/orders`: the orders, newest first, with what they hold, their payment and
//! their fulfilment; `GET /config/orders.csv` exports the matching ones. A role with the
//! commerce code marks an order sent with its tracking link (`POST /config/orders/fulfil`)
//! or refunds what is left of it (`POST /config/orders/refund`), both through the order
//! aftercare service the command line and the owner API use: units go back to stock and
//! the shopper is mailed.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use vitrine_core::checkout::{
    AftercareError, ChangeOrderError, Fulfilment, OwnerOrder, PaymentStatus, RefundError,
    RefundRequest, TrackingUrl,
};
use vitrine_core::owners::tables::{OwnerTable, TableAction, TableQuery};
use vitrine_core::owners::{OwnerViewer, role_permits};

use super::markup::back_field;
use super::{TableParams, actor, back_to, exported, open, refusal, shown, unavailable};
use crate::AppState;
use crate::render::commerce_pages::money_text;
use crate::shared::owner_access::now;
use crate::shared::request_parts::escape_html as escape;
use crate::shared::route_table::Routes;

const TABLE: OwnerTable = OwnerTable::Orders;

pub(super) fn routes() -> Routes {
    Routes::new()
        .route("/config/orders", get(page))
        .route("/config/orders.csv", get(export))
        .route("/config/orders/fulfil", post(fulfil))
        .route("/config/orders/refund", post(refund))
}

async fn page(
    State(state): State<AppState>,
    headers: HeaderMap,
    given: Result<Query<TableParams>, QueryRejection>,
) -> Response {
    let opened = match open(&state, &headers, TABLE, given, false).await {
        Ok(opened) => opened,
        Err(response) => return response,
    };
    let found = state.carts.owner_orders(&opened.1).await;
    let works = role_permits(opened.0.owner.role, TableAction::FulfilOrder.permission());
    let columns = ["Placed", "Order", "Items", "Total", "Payment", "Fulfilment"];
    shown(
        TABLE,
        &opened,
        found,
        &columns,
        ("order", "orders"),
        |row| order_row(row, &opened.0, &opened.1, works),
    )
}

fn items(row: &OwnerOrder) -> String {
    row.order
        .lines
        .iter()
        .map(|line| format!("{} × {}", line.product_name, line.quantity))
        .collect::<Vec<_>>()
        .join("; ")
}

fn order_row(row: &OwnerOrder, viewer: &OwnerViewer, query: &TableQuery, works: bool) -> String {
    let order = &row.order;
    let hidden = format!(
        "{csrf}{back}<input type=\"hidden\" name=\"id\" value=\"{id}\">",
        csrf = super::owner_markup::hidden_csrf(viewer),
        back = back_field(TABLE, query),
        id = escape(&order.id),
    );
    let id = escape(&order.id);
    let fulfilment = match &row.fulfilment {
        Fulfilment::Fulfilled { tracking_url, at } => format!(
            "Fulfilled {} <a href=\"{url}\" rel=\"noopener noreferrer\" target=\"_blank\">Tracking for order {id}</a>",
            super::owner_markup::date(at.millis()),
            url = escape(tracking_url.as_str())
        ),
        Fulfilment::Cancelled { at } => {
            format!("Cancelled {}", super::owner_markup::date(at.millis()))
        }
        Fulfilment::Open => "Not fulfilled".to_owned(),
    };
    let actions = if works {
        let field_id = format!("tracking-{id}");
        let fulfil = if row.fulfilment == Fulfilment::Open {
            format!(
                "<form method=\"post\" action=\"/config/orders/fulfil\">{hidden}\
                 <label for=\"{field_id}\">Tracking link for order {id}</label> \
                 <input id=\"{field_id}\" name=\"tracking\" type=\"url\" maxlength=\"2048\" required> \
                 <button type=\"submit\">Mark order {id} fulfilled</button></form>"
            )
        } else {
            String::new()
        };
        // A sent order may still be refunded: the parcel came back.
        let refund = if order.payment_status == PaymentStatus::Paid && !order.payment_id.is_empty()
        {
            format!(
                "<form method=\"post\" action=\"/config/orders/refund\">{hidden}\
                 <button type=\"submit\">Refund order {id}</button></form>"
            )
        } else {
            String::new()
        };
        format!("{fulfil}{refund}")
    } else {
        String::new()
    };
    format!(
        "<tr><td>{placed}</td><td>{id}<br>{email}</td><td>{items}</td><td>{total}</td>\
         <td>{payment}</td><td>{fulfilment}{actions}</td></tr>",
        placed = super::owner_markup::date(order.created.millis()),
        email = escape(&order.email),
        items = escape(&items(row)),
        total = escape(&money_text(order.grand_total_cents, order.currency)),
        payment = escape(order.payment_status.as_str()),
    )
}

async fn export(
    State(state): State<AppState>,
    headers: HeaderMap,
    given: Result<Query<TableParams>, QueryRejection>,
) -> Response {
    let query = match open(&state, &headers, TABLE, given, true).await {
        Ok((_, query)) => query,
        Err(response) => return response,
    };
    let header = [
        "id",
        "created",
        "email",
        "items",
        "currency",
        "grand_total_cents",
        "payment_status",
        "fulfilled_at",
        "tracking_url",
    ];
    exported(
        TABLE,
        state.carts.owner_orders(&query).await,
        &header,
        |row| {
            let order = &row.order;
            let (fulfilled_at, tracking_url) = match &row.fulfilment {
                Fulfilment::Fulfilled { tracking_url, at } => {
                    (at.millis().to_string(), tracking_url.as_str().to_owned())
                }
                Fulfilment::Cancelled { .. } | Fulfilment::Open => (String::new(), String::new()),
            };
            vec![
                order.id.clone(),
                order.created.millis().to_string(),
                order.email.clone(),
                items(row),
                order.currency.code().to_owned(),
                order.grand_total_cents.to_string(),
                order.payment_status.as_str().to_owned(),
                fulfilled_at,
                tracking_url,
            ]
        },
    )
}

/// The aftercare's refusal as the owner reads it, with its first letter capitalised.
fn sentence(error: &impl ToString) -> String {
    let text = error.to_string();
    let mut letters = text.chars();
    match letters.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), letters.as_str()),
        None => text,
    }
}

fn refused(error: AftercareError) -> Response {
    match error {
        AftercareError::Refund(RefundError::UnknownOrder(_))
        | AftercareError::Change(ChangeOrderError::UnknownOrder(_)) => {
            refusal(TABLE, StatusCode::NOT_FOUND, "No order has this id.")
        }
        AftercareError::Refund(refusal_) => {
            refusal(TABLE, StatusCode::CONFLICT, &sentence(&refusal_))
        }
        AftercareError::Change(refusal_) => {
            refusal(TABLE, StatusCode::CONFLICT, &sentence(&refusal_))
        }
        AftercareError::Gateway(cause) => {
            tracing::warn!(%cause, "the owner's refund was refused by the payment gateway");
            refusal(
                TABLE,
                StatusCode::BAD_GATEWAY,
                "The payment provider did not refund this order. Nothing changed; please try again.",
            )
        }
        AftercareError::Repository(error) => unavailable(TABLE, &error),
    }
}

/// The answer of a server that has no aftercare service (no order store).
fn no_aftercare() -> Response {
    refusal(
        TABLE,
        StatusCode::SERVICE_UNAVAILABLE,
        "This server keeps no orders, so none can be changed.",
    )
}

/// `POST /config/orders/fulfil`: marks an order sent, with its tracking link, and mails the
/// shopper.
async fn fulfil(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = super::super::config_page::form(&body);
    if let Err(response) = actor(&state, &parts.headers, &fields, TableAction::FulfilOrder).await {
        return response;
    }
    let field = |name| super::super::config_page::field(&fields, name).unwrap_or_default();
    let tracking = match TrackingUrl::parse(field("tracking")) {
        Ok(tracking) => tracking,
        Err(error) => return refusal(TABLE, StatusCode::BAD_REQUEST, &sentence(&error)),
    };
    let Some(service) = state.order_aftercare.as_deref() else {
        return no_aftercare();
    };
    match service.fulfil(field("id"), &tracking, now()).await {
        Ok(()) => back_to(TABLE, &fields),
        Err(error) => refused(error),
    }
}

/// `POST /config/orders/refund`: gives back what is left of the order's charge; its units
/// go back to stock.
async fn refund(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = super::super::config_page::form(&body);
    if let Err(response) = actor(&state, &parts.headers, &fields, TableAction::RefundOrder).await {
        return response;
    }
    let id = super::super::config_page::field(&fields, "id").unwrap_or_default();
    let Some(service) = state.order_aftercare.as_deref() else {
        return no_aftercare();
    };
    match service
        .refund(id, &RefundRequest::everything(), now())
        .await
    {
        Ok(_) => back_to(TABLE, &fields),
        Err(error) => refused(error),
    }
}
