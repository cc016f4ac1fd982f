//! The conversion events the server fires where they happen (000 s7), each with the data an
//! ad pixel expects and an event id a browser copy of the same event could share:
//!
//! - ViewContent: a product page served (rendered or from the cache), GET only, or a
//!   product's quick view; its SKUs and the price it shows ("from" the lowest). A random id
//!   per view.
//! - AddToCart: an item added through the API or the no-JavaScript form; the SKU and the
//!   value of the units added. A random id per add.
//! - Purchase: an order placed by this request (not a replayed submit); its SKUs and grand
//!   total. A random id of its own, never the order's id: the order's id opens the order's
//!   page for whoever holds the shopper's cart, and an ad network must learn nothing it
//!   could open a page with. The event fires once per order, so no browser copy needs it.
//! - Donate (beyond the spec's list, the pixels' standard event for it): a contribution
//!   recorded by this request (not a replayed submit); its amount and donation page. A random
//!   id, as for Purchase.
//! - Lead: a stored form submission or newsletter sign-up (not a replay, not a honeypot
//!   catch); the form id. The id names the submission, so a second sign-up of an address
//!   already on the list (the same stored row) repeats it and the pixel can drop it.
//! - CompleteRegistration: a double opt-in subscription confirmed; the list. The id names the
//!   subscription.
//!
//! - Search: a search made on the search page (a non-empty query, GET only); the query as
//!   `search_string`. A random id per search.

use axum::http::HeaderMap;
use axum::http::header::REFERER;
use vitrine_core::cart::ShoppingCart;
use vitrine_core::catalog::Sku;
use vitrine_core::checkout::Order;
use vitrine_core::conversions::{ConversionEvent, ConversionEventName};
use vitrine_core::forms::{SubmitReceipt, Subscriber};
use vitrine_core::money::Currency;
use vitrine_core::pages::{PageContent, PageView};
use vitrine_core::search::SearchQuery;
use vitrine_core::site::Item;

use crate::AppState;
use crate::shared::conversions::{random_event_id, server_event};

/// The page an event happened on: the page the request came from when the browser says it
/// is on this site (the Referer of a same-origin form or fetch), else `fallback` on this site.
pub(crate) fn page_path(state: &AppState, headers: &HeaderMap, fallback: &str) -> String {
    headers
        .get(REFERER)
        .and_then(|value| value.to_str().ok())
        .and_then(|referer| referer.strip_prefix(state.config.public_base_url.as_str()))
        .filter(|path| path.starts_with('/'))
        .unwrap_or(fallback)
        .to_owned()
}

/// What a view of a product page tells the pixel; kept with the cached page, so a page
/// served from the cache fires its ViewContent too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ViewedProduct {
    skus: Vec<String>,
    price_cents: i64,
    currency: Currency,
}

impl ViewedProduct {
    /// The product a page shows; none for other pages.
    pub(crate) fn of(view: &PageView) -> Option<Self> {
        let PageContent::Item { item, .. } = &view.content else {
            return None;
        };
        Self::of_item(item, view.profile.settings.store.selected_currency)
    }

    /// The product `item` is, priced in the store's `currency`; none when it is no product.
    pub(crate) fn of_item(item: &Item, currency: Currency) -> Option<Self> {
        let product = item.product.as_ref()?;
        Some(Self {
            skus: product
                .variants
                .iter()
                .map(|variant| variant.sku.as_str().to_owned())
                .collect(),
            price_cents: product.price_display().from,
            currency,
        })
    }

    pub(crate) fn event(&self, state: &AppState, path: &str) -> ConversionEvent {
        let name = ConversionEventName::ViewContent;
        ConversionEvent {
            value: Some((self.price_cents, self.currency)),
            content_ids: self.skus.clone(),
            ..server_event(state, name, random_event_id(name), path)
        }
    }
}

/// AddToCart for `quantity` of `sku` added to `cart`, valued at the units the line gained
/// (at most what it holds now, when stock cut the quantity); none when the line is missing.
pub(crate) fn added_to_cart(
    state: &AppState,
    headers: &HeaderMap,
    cart: &ShoppingCart,
    sku: &Sku,
    quantity: u32,
) -> Option<ConversionEvent> {
    let line = cart.entries.iter().find(|entry| &entry.sku == sku)?;
    let units = quantity.min(line.quantity);
    let name = ConversionEventName::AddToCart;
    Some(ConversionEvent {
        value: Some((
            line.unit_price_cents * i64::from(units),
            cart.subtotal_amount.currency,
        )),
        content_ids: vec![sku.as_str().to_owned()],
        ..server_event(
            state,
            name,
            random_event_id(name),
            &page_path(state, headers, "/cart"),
        )
    })
}

/// Purchase of a placed order, with its distinct SKUs and grand total.
pub(crate) fn purchased(state: &AppState, order: &Order) -> ConversionEvent {
    let mut skus: Vec<String> = Vec::new();
    for line in &order.lines {
        if !skus.iter().any(|sku| sku == line.sku.as_str()) {
            skus.push(line.sku.as_str().to_owned());
        }
    }
    ConversionEvent {
        value: Some((order.grand_total_cents, order.currency)),
        content_ids: skus,
        ..server_event(
            state,
            ConversionEventName::Purchase,
            random_event_id(ConversionEventName::Purchase),
            "/checkout",
        )
    }
}

/// Donate of a recorded contribution, with its amount and the donation page it was given
/// through. A random id of its own, for the reason Purchase has one: the contribution's id
/// names its confirmation page.
pub(crate) fn donated(
    state: &AppState,
    contribution: &vitrine_core::checkout::Contribution,
) -> ConversionEvent {
    ConversionEvent {
        value: Some((contribution.amount_minor, contribution.currency)),
        content_ids: vec![contribution.donate_page_id.clone()],
        ..server_event(
            state,
            ConversionEventName::Donate,
            random_event_id(ConversionEventName::Donate),
            "/checkout/donate",
        )
    }
}

/// Lead of a stored submission of `form_id`; none for a replay or a honeypot catch, which
/// store nothing new.
pub(crate) fn lead(
    state: &AppState,
    headers: &HeaderMap,
    receipt: &SubmitReceipt,
    form_id: &str,
) -> Option<ConversionEvent> {
    if receipt.replayed || receipt.spam {
        return None;
    }
    let name = ConversionEventName::Lead;
    Some(ConversionEvent {
        content_ids: vec![form_id.to_owned()],
        ..server_event(
            state,
            name,
            format!("{}-{}", name.wire(), receipt.submission_id),
            &page_path(state, headers, "/"),
        )
    })
}

/// CompleteRegistration of a confirmed newsletter subscription.
pub(crate) fn registration_completed(state: &AppState, subscriber: &Subscriber) -> ConversionEvent {
    let name = ConversionEventName::CompleteRegistration;
    ConversionEvent {
        content_ids: vec![subscriber.list.clone()],
        ..server_event(
            state,
            name,
            format!("{}-{}", name.wire(), subscriber.submission_id),
            vitrine_core::forms::channels::CONFIRM_PATH,
        )
    }
}

/// Search for `query` made on the search page at `path` (with its query string).
pub(crate) fn searched(state: &AppState, query: &SearchQuery, path: &str) -> ConversionEvent {
    let name = ConversionEventName::Search;
    ConversionEvent {
        search_string: Some(query.text().to_owned()),
        ..server_event(state, name, random_event_id(name), path)
    }
}
