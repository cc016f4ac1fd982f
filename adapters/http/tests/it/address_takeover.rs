//! An address that changes hands: Ada buys with her address (once as a guest before signing
//! up) and gives to a cause with it, moves to another one, and Bo signs up with the address
//! she left and buys and gives with it. Each account page and export shows its own orders
//! and donations only, and Ada's deletion erases hers and leaves Bo's orders, his donation
//! and the mails waiting for Bo alone.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::contribution_conformance::contribution;
use vitrine_core::checkout::{
    CommerceStore, Contribution, ContributionStore, InMemoryCommerceStore,
    InMemoryContributionStore,
};

use crate::members::{Members, members_erasing_donations, page};
use crate::paid_members::{api_post, paid_site, plan_checkout, subscribe, with_store_in};

/// The ids of the orders the account page of `session` lists, in its order.
async fn listed(app: &Members, session: &str) -> Vec<String> {
    let account = app.send(page("/account", Some(session))).await;
    assert_eq!(account.status, StatusCode::OK, "{}", account.text());
    account
        .text()
        .split("href=\"/commerce/orders/")
        .skip(1)
        .filter_map(|rest| rest.split('?').next())
        .map(str::to_owned)
        .collect()
}

/// The export of `session`, and the ids of the orders it holds.
async fn exported(app: &Members, session: &str) -> (serde_json::Value, Vec<String>) {
    let export = app
        .send(page("/account/export.json", Some(session)))
        .await
        .json();
    let ids = export["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|order| order["id"].as_str().unwrap().to_owned())
        .collect();
    (export, ids)
}

/// A donation of `id` to `cause` with the address ada@example.com, made now; then a pause,
/// so that what happens next is later.
async fn given(store: &InMemoryContributionStore, id: &str, cause: &str) -> Contribution {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let donation = Contribution {
        campaign_title: cause.into(),
        created: Timestamp(now),
        ..contribution(id, id, 1_500)
    };
    let recorded = store.record(&donation).await.unwrap();
    tokio::time::sleep(Duration::from_millis(2)).await;
    recorded
}

/// The ids of the donations in the export `export`.
fn donation_ids(export: &serde_json::Value) -> Vec<&str> {
    export["donations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|donation| donation["id"].as_str().unwrap())
        .collect()
}

/// Places a plan's order with `email`, signed in as `session` or as a guest; its id.
async fn bought(app: &Members, email: &str, session: Option<&str>) -> String {
    let (cart, html) = plan_checkout(app, session).await;
    let location = subscribe(app, &cart, &html, email, session).await;
    location
        .trim_start_matches("/commerce/orders/")
        .split('/')
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn an_address_taken_over_by_another_account_shows_each_account_only_its_own_orders_and_donations()
 {
    let orders = Arc::new(InMemoryCommerceStore::new());
    let donations = Arc::new(InMemoryContributionStore::new());
    let store = orders.clone();
    let app = members_erasing_donations(
        &paid_site(),
        orders.clone(),
        None,
        donations.clone(),
        move |state, repository| with_store_in(state, repository, store),
    )
    .await;
    let as_guest = bought(&app, "ada@example.com", None).await;
    let ada = app.member("ada@example.com").await;
    let adas = bought(&app, "ada@example.com", Some(&ada)).await;
    let adas_gift = given(&donations, "ada-gives", "The kiln fund").await;
    let xsrf = app.xsrf(&ada).await;
    let token = {
        let asked = app
            .send(api_post(
                "/api/site-users/account/email",
                serde_json::json!({ "email": "ada.new@example.com" }),
                &ada,
                &xsrf,
            ))
            .await;
        assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text());
        app.token_mailed_to("ada.new@example.com").await
    };
    let changed = app
        .send(api_post(
            "/api/site-users/account/email/confirm",
            serde_json::json!({ "token": token }),
            &ada,
            &xsrf,
        ))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text());
    // Bo's hold starts after the millisecond Ada left in.
    tokio::time::sleep(Duration::from_millis(2)).await;
    let bo = app.member("ada@example.com").await;
    let bos = bought(&app, "ada@example.com", Some(&bo)).await;
    let bos_gift = given(&donations, "bo-gives", "The library fund").await;

    assert_eq!(
        listed(&app, &bo).await,
        std::slice::from_ref(&bos),
        "Bo sees his order, not Ada's older ones under the same address"
    );
    let (export, ids) = exported(&app, &bo).await;
    assert_eq!(ids, std::slice::from_ref(&bos));
    assert_eq!(donation_ids(&export), ["bo-gives"]);
    assert_eq!(export["earlierEmails"], serde_json::json!([]));
    let bos_page = app.send(page("/account", Some(&bo))).await.text();
    assert!(bos_page.contains("<td>The library fund</td>"), "{bos_page}");
    assert!(!bos_page.contains("The kiln fund"), "{bos_page}");
    assert_eq!(
        listed(&app, &ada).await,
        [adas.clone(), as_guest.clone()],
        "Ada still sees hers, the one she placed as a guest before signing up included"
    );
    let (export, ids) = exported(&app, &ada).await;
    assert_eq!(ids, [adas.clone(), as_guest.clone()]);
    assert_eq!(donation_ids(&export), ["ada-gives"]);
    let adas_page = app.send(page("/account", Some(&ada))).await.text();
    assert!(adas_page.contains("<td>The kiln fund</td>"), "{adas_page}");
    assert!(
        adas_page.contains("Orders and donations stay on record without your personal details.")
    );
    assert!(!adas_page.contains("The library fund"), "{adas_page}");
    assert_eq!(
        export["earlierEmails"],
        serde_json::json!(["ada@example.com"])
    );

    let waiting_for_bo = app.unsent_mails_to("ada@example.com").await;
    assert!(waiting_for_bo > 0, "Bo's confirmation mail waits to go out");
    let page_of_ada = app.send(page("/account", Some(&ada))).await.text();
    let deleted = app
        .delete_account(&ada, &crate::members::hidden(&page_of_ada, "xsrf"))
        .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text());

    for id in [&as_guest, &adas] {
        let kept = orders.order(id).await.unwrap().expect("kept for the books");
        assert_eq!(kept.email, "", "{id}");
    }
    let erased = donations
        .contribution(&adas_gift.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((erased.name.as_str(), erased.email.as_str()), ("", ""));
    assert_eq!(
        donations.contribution(&bos_gift.id).await.unwrap(),
        Some(bos_gift),
        "Bo's donation keeps its donor"
    );
    let kept = orders.order(&bos).await.unwrap().expect("Bo's order");
    assert_eq!(kept.email, "ada@example.com");
    assert_eq!(kept.shipping_address.unwrap().line1, "1 Main St");
    assert_eq!(listed(&app, &bo).await, std::slice::from_ref(&bos));
    assert_eq!(
        app.unsent_mails_to("ada@example.com").await,
        waiting_for_bo,
        "the mails to the address are Bo's now, and still go out"
    );
}
