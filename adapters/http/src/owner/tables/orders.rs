//! `GET /config/orders`: the orders, newest first, with what they hold, their payment and
//! their fulfilment; `GET /config/orders.csv` exports the matching ones. A role with the
//! commerce code marks an order fulfilled (`POST /config/orders/fulfil`, with an optional
//! tracking link) or refunds its charge in full through the payment gateway
//! (`POST /config/orders/refund`).

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use vitrine_core::checkout::{OwnerOrder, OwnerOrderError, PaymentStatus};
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
        Some(done) => {
            let tracking = done
                .tracking_url
                .as_ref()
                .map(|url| {
                    format!(
                        " <a href=\"{url}\" rel=\"noopener noreferrer\" target=\"_blank\">Tracking for order {id}</a>",
                        url = escape(url.as_str())
                    )
                })
                .unwrap_or_default();
            format!(
                "Fulfilled {}{tracking}",
                super::owner_markup::date(done.fulfilled_at.millis())
            )
        }
        None => "Not fulfilled".to_owned(),
    };
    let actions = if works {
        let field_id = format!("tracking-{id}");
        let fulfil = format!(
            "<form method=\"post\" action=\"/config/orders/fulfil\">{hidden}\
             <label for=\"{field_id}\">Tracking link for order {id} (optional)</label> \
             <input id=\"{field_id}\" name=\"tracking\" type=\"url\" maxlength=\"2048\"> \
             <button type=\"submit\">Mark order {id} fulfilled</button></form>"
        );
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
            let fulfilment = row.fulfilment.as_ref();
            vec![
                order.id.clone(),
                order.created.millis().to_string(),
                order.email.clone(),
                items(row),
                order.currency.code().to_owned(),
                order.grand_total_cents.to_string(),
                order.payment_status.as_str().to_owned(),
                fulfilment
                    .map(|done| done.fulfilled_at.millis().to_string())
                    .unwrap_or_default(),
                fulfilment
                    .and_then(|done| done.tracking_url.as_ref())
                    .map(|url| url.as_str().to_owned())
                    .unwrap_or_default(),
            ]
        },
    )
}

fn refused(error: OwnerOrderError) -> Response {
    match error {
        OwnerOrderError::UnknownOrder => refusal(TABLE, StatusCode::NOT_FOUND, &error.to_string()),
        OwnerOrderError::InvalidTrackingUrl(_) => {
            refusal(TABLE, StatusCode::BAD_REQUEST, &error.to_string())
        }
        OwnerOrderError::NotRefundable => refusal(TABLE, StatusCode::CONFLICT, &error.to_string()),
        OwnerOrderError::Refund(cause) => {
            tracing::warn!(%cause, "the owner's refund was refused by the payment gateway");
            refusal(
                TABLE,
                StatusCode::BAD_GATEWAY,
                "The payment provider did not refund this order. Nothing changed; please try again.",
            )
        }
        OwnerOrderError::Repository(error) => unavailable(TABLE, &error),
    }
}

/// `POST /config/orders/fulfil`: marks an order fulfilled, with the tracking link typed.
async fn fulfil(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = super::super::config_page::form(&body);
    if let Err(response) = actor(&state, &parts.headers, &fields, TableAction::FulfilOrder).await {
        return response;
    }
    let field = |name| super::super::config_page::field(&fields, name).unwrap_or_default();
    match state
        .carts
        .fulfil_order(field("id"), field("tracking"), now())
        .await
    {
        Ok(()) => back_to(TABLE, &fields),
        Err(error) => refused(error),
    }
}

/// `POST /config/orders/refund`: gives the order's charge back in full.
async fn refund(State(state): State<AppState>, parts: Parts, body: Bytes) -> Response {
    let fields = super::super::config_page::form(&body);
    if let Err(response) = actor(&state, &parts.headers, &fields, TableAction::RefundOrder).await {
        return response;
    }
    let id = super::super::config_page::field(&fields, "id").unwrap_or_default();
    match state.carts.refund_order(id, now()).await {
        Ok(_) => back_to(TABLE, &fields),
        Err(error) => refused(error),
    }
}
