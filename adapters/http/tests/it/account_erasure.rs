//! Account deletion through the router really erases: the orders placed with the account's
//! address stay (their pages open) without the address or the shipping details, and the
//! address's newsletter subscriptions and the mails to it not yet sent are gone, while
//! another buyer's order is untouched. The addresses the account confirmed before an email
//! change are erased (and exported) as its current one is; an address it only asked to
//! move to is not. The account page lists the orders of all those addresses, newest first.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::checkout::{CommerceStore, InMemoryCommerceStore};
use vitrine_core::forms::{NewsletterService, NewsletterSubscriptions};

use crate::members::Members;
use crate::members::{members_erasing, page};
use crate::paid_members::{
    api_post, paid_site, plan_checkout, subscribe, subscriptions_of, with_store_in,
};

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

/// Asks to move the account of `session` to `to`; the token mailed there.
async fn ask_to_move(app: &Members, session: &str, xsrf: &str, to: &str) -> String {
    let asked = app
        .send(api_post(
            "/api/site-users/account/email",
            serde_json::json!({ "email": to }),
            session,
            xsrf,
        ))
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text());
    app.token_mailed_to(to).await
}

/// Moves the account of `session` to `to` through the link mailed there.
async fn moved(app: &Members, session: &str, xsrf: &str, to: &str) {
    let token = ask_to_move(app, session, xsrf, to).await;
    let changed = app
        .send(api_post(
            "/api/site-users/account/email/confirm",
            serde_json::json!({ "token": token }),
            session,
            xsrf,
        ))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
}

#[tokio::test]
async fn a_deleted_account_erases_the_orders_of_the_addresses_it_confirmed_before() {
    let orders = Arc::new(InMemoryCommerceStore::new());
    let store = orders.clone();
    let app = members_erasing(
        &paid_site(),
        orders.clone(),
        None,
        move |state, repository| with_store_in(state, repository, store),
    )
    .await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    let xsrf = app.xsrf(&session).await;
    moved(&app, &session, &xsrf, "ada.new@example.com").await;
    // An address Ada asked to move to and never confirmed, where somebody else shops.
    ask_to_move(&app, &session, &xsrf, "ada.typo@example.com").await;
    let (other_cart, other_html) = plan_checkout(&app, None).await;
    subscribe(&app, &other_cart, &other_html, "ada.typo@example.com", None).await;
    let first = orders.orders_by_email("ada@example.com", 10).await.unwrap();
    assert_eq!(first.len(), 1);

    let export = app
        .send(page("/account/export.json", Some(&session)))
        .await
        .json();
    assert_eq!(export["email"], "ada.new@example.com");
    assert_eq!(
        export["earlierEmails"],
        serde_json::json!(["ada@example.com"])
    );
    let exported: Vec<&str> = export["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|order| order["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        exported,
        [first[0].id.as_str()],
        "the old address's order, and nobody else's"
    );
    assert!(app.unsent_mails_to("ada@example.com").await > 0);

    let deleted = app.delete_account(&session, &xsrf).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text());

    let kept = orders.order(&first[0].id).await.unwrap().unwrap();
    assert_eq!(kept.email, "");
    assert_eq!(kept.shipping_address.unwrap().line1, "");
    assert_eq!(kept.grand_total_cents, first[0].grand_total_cents);
    assert_eq!(app.unsent_mails_to("ada@example.com").await, 0);
    let theirs = orders
        .orders_by_email("ada.typo@example.com", 10)
        .await
        .unwrap();
    assert_eq!(theirs.len(), 1, "an address never confirmed is not erased");
    assert_eq!(
        theirs[0].shipping_address.as_ref().unwrap().line1,
        "1 Main St"
    );
    assert!(app.unsent_mails_to("ada.typo@example.com").await > 0);
}

/// The ids of the orders the account page lists, in its order.
fn listed_orders(html: &str) -> Vec<String> {
    html.split("href=\"/commerce/orders/")
        .skip(1)
        .filter_map(|rest| rest.split('?').next())
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn the_account_page_lists_the_orders_of_every_address_the_account_confirmed_newest_first() {
    let orders = Arc::new(InMemoryCommerceStore::new());
    let store = orders.clone();
    let app = members_erasing(
        &paid_site(),
        orders.clone(),
        None,
        move |state, repository| with_store_in(state, repository, store),
    )
    .await;
    let session = app.member("ada@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada@example.com", Some(&session)).await;
    let xsrf = app.xsrf(&session).await;
    moved(&app, &session, &xsrf, "ada.new@example.com").await;
    let (cart, html) = plan_checkout(&app, Some(&session)).await;
    subscribe(&app, &cart, &html, "ada.new@example.com", Some(&session)).await;
    // An address Ada asked to move to and never confirmed, where somebody else shops.
    ask_to_move(&app, &session, &xsrf, "ada.typo@example.com").await;
    let (other_cart, other_html) = plan_checkout(&app, None).await;
    subscribe(&app, &other_cart, &other_html, "ada.typo@example.com", None).await;

    let earlier = orders.orders_by_email("ada@example.com", 10).await.unwrap();
    let current = orders
        .orders_by_email("ada.new@example.com", 10)
        .await
        .unwrap();
    assert_eq!((earlier.len(), current.len()), (1, 1));
    assert!(current[0].created >= earlier[0].created);
    let account = app.send(page("/account", Some(&session))).await;
    assert_eq!(account.status, StatusCode::OK, "{}", account.text());
    assert_eq!(
        listed_orders(&account.text()),
        [current[0].id.clone(), earlier[0].id.clone()],
        "both of Ada's addresses' orders, the newest first, and nobody else's"
    );
    // The export holds the same orders in the same order.
    let export = app
        .send(page("/account/export.json", Some(&session)))
        .await
        .json();
    let exported: Vec<&str> = export["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|order| order["id"].as_str().unwrap())
        .collect();
    assert_eq!(exported, [current[0].id.as_str(), earlier[0].id.as_str()]);
}
