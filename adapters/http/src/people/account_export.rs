//! `GET /account/export.json`: everything the site keeps about a signed-in site user, as a
//! download they can keep or take elsewhere: the account itself with the confirmed addresses
//! it had before, the orders placed and the donations made with any of its verified addresses
//! while it held them (the ones deleting it would erase) and the newsletters those addresses
//! receive, unless another account has confirmed the address since.
//!
//! The export is a wire format of its own (not the core's types), so a renamed field in the
//! core cannot silently change what people have already downloaded. Gift-card codes are left
//! out on purpose: an order page shows a code once and masks it afterwards, and a file that
//! is mailed around or synced to a cloud drive must not undo that.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use vitrine_core::checkout::{Contribution, ContributionPayment, Order};
use vitrine_core::forms::Subscriber;
use vitrine_core::people::{Account, EmailAddress, Unavailable};

use crate::AppState;

/// As many orders as one address could sensibly have placed: the export holds them all,
/// unlike the account page, which lists the newest.
const ORDERS_EXPORTED: u32 = 100_000;
/// As many donations as one address could sensibly have made, likewise.
const DONATIONS_EXPORTED: u32 = 100_000;

/// The downloaded file.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AccountExport {
    id: String,
    email: String,
    email_confirmed_at: Option<i64>,
    /// The confirmed addresses the account moved away from, the one left last first.
    earlier_emails: Vec<String>,
    created_at: i64,
    member_areas: Vec<String>,
    orders: Vec<ExportedOrder>,
    donations: Vec<ExportedDonation>,
    newsletters: Vec<ExportedNewsletter>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedDonation {
    id: String,
    made_at: i64,
    /// The donation page's title when the donation was made.
    cause: String,
    amount_minor: i64,
    currency: String,
    /// The donor's name and address as given with the donation.
    name: String,
    email: String,
    payment_status: &'static str,
}

impl From<&Contribution> for ExportedDonation {
    fn from(given: &Contribution) -> Self {
        Self {
            id: given.id.clone(),
            made_at: given.created.millis(),
            cause: given.campaign_title.clone(),
            amount_minor: given.amount_minor,
            currency: given.currency.to_string(),
            name: given.name.clone(),
            email: given.email.clone(),
            payment_status: match given.payment {
                ContributionPayment::Pending { .. } => "pending",
                ContributionPayment::Paid { .. } => "paid",
                ContributionPayment::Failed { .. } => "failed",
            },
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedOrder {
    id: String,
    placed_at: i64,
    currency: String,
    lines: Vec<ExportedLine>,
    coupon_codes: Vec<String>,
    subtotal_cents: i64,
    discount_cents: i64,
    shipping_cents: i64,
    tax_cents: i64,
    total_cents: i64,
    payment_status: &'static str,
    shipping_address: Option<ExportedAddress>,
    /// How many gift cards the order issued; their codes stay on the order page.
    gift_cards_issued: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedLine {
    sku: String,
    product: String,
    quantity: u32,
    unit_price_cents: i64,
    /// The shopper's answers to the product's form, by question.
    answers: Vec<ExportedAnswer>,
}

#[derive(Debug, Serialize)]
struct ExportedAnswer {
    question: String,
    answer: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportedAddress {
    name: String,
    line1: String,
    line2: String,
    city: String,
    region: String,
    postal_code: String,
    country: String,
}

#[derive(Debug, Serialize)]
struct ExportedNewsletter {
    /// The newsletter block's list id.
    list: String,
    /// The address subscribed.
    email: String,
    confirmed: bool,
}

impl AccountExport {
    fn new(
        account: &Account,
        earlier_emails: &[EmailAddress],
        orders: &[Order],
        donations: &[Contribution],
        subscriptions: &[Subscriber],
    ) -> Self {
        Self {
            id: account.id.as_str().to_owned(),
            email: account.email.as_str().to_owned(),
            email_confirmed_at: account.confirmed_at.map(|at| at.millis()),
            earlier_emails: earlier_emails
                .iter()
                .map(|email| email.as_str().to_owned())
                .collect(),
            created_at: account.created.millis(),
            member_areas: account.member_areas.clone(),
            orders: orders.iter().map(ExportedOrder::from).collect(),
            donations: donations.iter().map(ExportedDonation::from).collect(),
            newsletters: subscriptions
                .iter()
                .map(|subscriber| ExportedNewsletter {
                    list: subscriber.list.clone(),
                    email: subscriber.email.clone(),
                    confirmed: subscriber.confirmed,
                })
                .collect(),
        }
    }
}

impl From<&Order> for ExportedOrder {
    fn from(order: &Order) -> Self {
        Self {
            id: order.id.clone(),
            placed_at: order.created.millis(),
            currency: order.currency.to_string(),
            lines: order
                .lines
                .iter()
                .map(|line| ExportedLine {
                    sku: line.sku.as_str().to_owned(),
                    product: line.product_name.clone(),
                    quantity: line.quantity,
                    unit_price_cents: line.unit_price_cents,
                    answers: line
                        .answers
                        .iter()
                        .map(|answer| ExportedAnswer {
                            question: answer.title.clone(),
                            answer: answer.value.clone(),
                        })
                        .collect(),
                })
                .collect(),
            coupon_codes: order
                .coupon_codes
                .iter()
                .map(|code| code.as_str().to_owned())
                .collect(),
            subtotal_cents: order.subtotal_cents,
            discount_cents: order.discount_cents,
            shipping_cents: order.shipping_cost_cents,
            tax_cents: order.tax_cents,
            total_cents: order.grand_total_cents,
            payment_status: order.payment_status.as_str(),
            shipping_address: order
                .shipping_address
                .as_ref()
                .map(|address| ExportedAddress {
                    name: address.name.clone(),
                    line1: address.line1.clone(),
                    line2: address.line2.clone(),
                    city: address.city.clone(),
                    region: address.region.clone(),
                    postal_code: address.postal_code.clone(),
                    country: address.country.clone(),
                }),
            gift_cards_issued: order.gift_cards.len(),
        }
    }
}

/// The handler: the export of the signed-in viewer, or the way to sign in first.
pub(super) async fn export(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let viewer = match super::account_page::required(&state, &headers).await {
        Ok(viewer) => viewer,
        Err(response) => return response,
    };
    let data = match gather(&state, &viewer.account).await {
        Ok(data) => data,
        Err(error) => {
            tracing::error!(%error, "reading an account's records for its export failed");
            return crate::shared::visitor_page::unavailable(&state);
        }
    };
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, "application/json"),
            (CACHE_CONTROL, "no-store"),
            (CONTENT_DISPOSITION, "attachment; filename=\"account.json\""),
        ],
        serde_json::to_string_pretty(&data).unwrap_or_default(),
    )
        .into_response()
}

/// What the site keeps under the account's verified addresses: the orders and donations of
/// its holds of them, newest first, and the newsletters of those no other account has
/// confirmed since.
async fn gather(state: &AppState, account: &Account) -> Result<AccountExport, Unavailable> {
    let holds = state.people.address_holds(account).await?;
    let orders = state.people.orders_of(account, ORDERS_EXPORTED).await?;
    let donations = state
        .people
        .contributions_of(account, DONATIONS_EXPORTED)
        .await?;
    let mut earlier: Vec<EmailAddress> = Vec::new();
    let mut subscribed: Vec<&EmailAddress> = Vec::new();
    for hold in &holds {
        if !hold.is_current() && hold.email != account.email && !earlier.contains(&hold.email) {
            earlier.push(hold.email.clone());
        }
        if !hold.superseded && !subscribed.contains(&&hold.email) {
            subscribed.push(&hold.email);
        }
    }
    let mut subscriptions = Vec::new();
    if let Some(newsletter) = state.newsletter.as_deref() {
        for email in subscribed {
            subscriptions.extend(newsletter.subscriptions_of(email.as_str()).await?);
        }
    }
    Ok(AccountExport::new(
        account,
        &earlier,
        &orders,
        &donations,
        &subscriptions,
    ))
}

#[cfg(test)]
mod tests {
    use vitrine_core::cart::Timestamp;
    use vitrine_core::people::AccountId;

    use super::*;

    #[test]
    fn the_export_keeps_its_wire_shape() {
        let email = |text| EmailAddress::parse(text).unwrap();
        let account = Account {
            id: AccountId::parse(&"a".repeat(32)).unwrap(),
            email: email("ada.new@example.com"),
            password_hash: "$argon2id$never-exported".into(),
            confirmed_at: Some(Timestamp(2_000)),
            created: Timestamp(1_000),
            member_areas: vec!["readers".into()],
        };
        let letter = Subscriber {
            submission_id: 7,
            list: "letter".into(),
            email: "ada@example.com".into(),
            unsubscribe_token: "never-exported".into(),
            confirm_token: None,
            confirmed: true,
            unsubscribed: false,
        };
        let donation = Contribution {
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            created: Timestamp(1_500),
            ..vitrine_core::checkout::contribution_conformance::contribution("gift-1", "k1", 2_500)
        };
        let export = AccountExport::new(
            &account,
            &[email("ada@example.com")],
            &[],
            &[donation],
            &[letter],
        );
        insta::assert_json_snapshot!(export, @r#"
        {
          "id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
          "email": "ada.new@example.com",
          "emailConfirmedAt": 2000,
          "earlierEmails": [
            "ada@example.com"
          ],
          "createdAt": 1000,
          "memberAreas": [
            "readers"
          ],
          "orders": [],
          "donations": [
            {
              "id": "gift-1",
              "madeAt": 1500,
              "cause": "Support the community kiln",
              "amountMinor": 2500,
              "currency": "EUR",
              "name": "Ada Lovelace",
              "email": "ada@example.com",
              "paymentStatus": "paid"
            }
          ],
          "newsletters": [
            {
              "list": "letter",
              "email": "ada@example.com",
              "confirmed": true
            }
          ]
        }
        "#);
    }
}
