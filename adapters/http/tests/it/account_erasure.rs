//! Account deletion through the router really erases: the orders placed with the account's
//! address stay (their pages open) without the address or the shipping details, and the
//! address's newsletter subscriptions and the mails to it not yet sent are gone, while
//! another buyer's order is untouched.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::checkout::{CommerceStore, InMemoryCommerceStore};
use vitrine_core::forms::{NewsletterService, NewsletterSubscriptions};

use crate::members::{members_erasing, page};
use crate::paid_members::{paid_site, plan_checkout, subscribe, subscriptions_of, with_store_in};

/// The signed order link the account page shows first.
fn first_order_link(html: &str) -> String {
    let start = html
        .find("href=\"/commerce/orders/order-")
        .expect("an order is listed")
        + 6;
    html[start..]
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&")
}

#[tokio::test]
async fn a_deleted_account_leaves_its_orders_without_its_address_and_ends_its_subscriptions() {
    let orders = Arc::new(InMemoryCommerceStore::new());
    let newsletters = subscriptions_of("ada@example.com").await;
    let (store, list) = (orders.clone(), newsletters.clone());
    let app = members_erasing(
        &paid_site(),
        orders.clone(),
        Some(newsletters.clone() as Arc<dyn NewsletterSubscriptions>),
        move |state, repository| {
            with_store_in(state, repository, store)
                .with_newsletter(Arc::new(NewsletterService::new(list, vec![])))
        },
    )
    .await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "Ada@Example.com", Some(&session)).await;
    let (other_cart, other_html) = plan_checkout(&app, None).await;
    subscribe(&app, &other_cart, &other_html, "bo@example.com", None).await;
    let account = app.send(page("/account", Some(&session))).await.text();
    let link = first_order_link(&account);
    let xsrf = crate::members::hidden(&account, "xsrf");
    let placed = orders.orders_by_email("ada@example.com", 10).await.unwrap();
    assert_eq!(placed.len(), 1);
    let id = placed[0].id.clone();
    assert_eq!(
        placed[0].shipping_address.as_ref().unwrap().line1,
        "1 Main St"
    );

    let waiting = app.unsent_mails_to("ada@example.com").await;
    assert!(
        waiting > 0,
        "the confirmation mail waits for the delivery worker"
    );
    let bo_waiting = app.unsent_mails_to("bo@example.com").await;

    let deleted = app.delete_account(&session, &xsrf).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text());

    // What had not gone out to the address is withdrawn; nobody else's mail is.
    assert_eq!(app.unsent_mails_to("ada@example.com").await, 0);
    assert_eq!(app.unsent_mails_to("bo@example.com").await, bo_waiting);

    // The order stays for the books, without the buyer's address or shipping details.
    let kept = orders.order(&id).await.unwrap().expect("the order stays");
    assert_eq!(kept.email, "");
    let address = kept.shipping_address.expect("its region and country stay");
    assert_eq!(
        (
            address.name.as_str(),
            address.line1.as_str(),
            address.city.as_str()
        ),
        ("", "", "")
    );
    assert_eq!(address.postal_code, "");
    assert_eq!(
        (address.region.as_str(), address.country.as_str()),
        ("MA", "US")
    );
    assert_eq!(kept.grand_total_cents, placed[0].grand_total_cents);
    let order_page = app.send(page(&link, None)).await;
    assert_eq!(order_page.status, StatusCode::OK, "{}", order_page.text());
    let text = order_page.text().to_lowercase();
    assert!(!text.contains("ada@example.com"), "{text}");
    assert!(
        !text.contains("1 main st") && !text.contains("ada member"),
        "{text}"
    );

    // The subscriptions of the address, live or ended, are gone with their links.
    assert!(
        newsletters
            .subscriptions_of("ada@example.com")
            .await
            .unwrap()
            .is_empty()
    );
    let link = newsletters.subscriber_by_token(&"1".repeat(64)).await;
    assert_eq!(
        link.unwrap(),
        None,
        "the live subscription's link opens nothing"
    );

    // Another buyer's order keeps everything.
    let others = orders.orders_by_email("bo@example.com", 10).await.unwrap();
    assert_eq!(others.len(), 1);
    assert_eq!(
        others[0].shipping_address.as_ref().unwrap().name,
        "Ada Member"
    );
}
