//! Subscriptions on the account page: a signed-in user with a confirmed address sees the
//! subscriptions bought with it, and pauses, resumes and cancels them with the session's
//! XSRF token through the renewal service; another address's subscription is not theirs.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::checkout::{
    InMemoryCommerceStore, OrderLinkKey, RenewalService, RenewalStore, SubscriptionLinks,
    SubscriptionStatus, TestPaymentGateway,
};
use vitrine_http::people::account_subscriptions::{
    SUBSCRIPTION_CANCELLED, SUBSCRIPTION_NOT_FOUND, SUBSCRIPTION_PAUSED, SUBSCRIPTION_RESUMED,
};

use crate::members::{Members, form_post, members_site, members_with, page};
use crate::subscription_links::club_order;

async fn app() -> (Members, Arc<InMemoryCommerceStore>, String, String) {
    let store = Arc::new(InMemoryCommerceStore::new());
    club_order(&store, "order-1", "Ada@Example.com").await;
    club_order(&store, "order-2", "bo@example.com").await;
    let (own, other) = (
        "order-1-subscription".to_owned(),
        "order-2-subscription".to_owned(),
    );
    let renewals = RenewalService::new(
        store.clone(),
        Arc::new(TestPaymentGateway::new()),
        SubscriptionLinks::new("http://shop.test", &OrderLinkKey::new([9; 32])),
    );
    let members = members_with(&members_site(), |state, _| {
        state.with_renewals(Arc::new(renewals))
    })
    .await;
    (members, store, own, other)
}

async fn status(store: &InMemoryCommerceStore, id: &str) -> SubscriptionStatus {
    store.find_subscription(id).await.unwrap().unwrap().status
}

#[tokio::test]
async fn the_account_page_lists_the_addresss_subscriptions_with_their_buttons() {
    let (app, _, own, other) = app().await;
    let session = app.member("ada@example.com").await;
    let html = app.send(page("/account", Some(&session))).await.text();
    assert!(
        html.contains("<h2 id=\"account-subscriptions\">Subscriptions</h2>"),
        "{html}"
    );
    assert!(html.contains("<h3>Clay Club</h3>"), "{html}");
    assert!(html.contains("<dt>Status</dt><dd>Active</dd>"), "{html}");
    assert!(
        html.contains("<dd>$19.00 · Every month, until cancelled</dd>"),
        "{html}"
    );
    assert!(
        html.contains("<dt>Next renewal</dt><dd><time datetime="),
        "{html}"
    );
    assert!(html.contains(&format!("action=\"/account/subscriptions/{own}/pause\"")));
    assert!(html.contains(&format!("action=\"/account/subscriptions/{own}/cancel\"")));
    assert!(!html.contains(&format!("/account/subscriptions/{own}/resume")));
    assert!(html.contains(&format!(
        "href=\"http://shop.test/commerce/subscriptions/{own}?sig="
    )));
    assert!(
        !html.contains(&other),
        "another address's subscription is not listed"
    );
}

#[tokio::test]
async fn pause_resume_and_cancel_go_through_the_renewal_service_with_the_xsrf_token() {
    let (app, store, own, _) = app().await;
    let session = app.member("ada@example.com").await;
    let xsrf = app.xsrf(&session).await;
    let act = |action: &str, xsrf: &str| {
        form_post(
            &format!("/account/subscriptions/{own}/{action}"),
            &[("xsrf", xsrf)],
            Some(&session),
        )
    };

    let forged = app.send(act("pause", "forged")).await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    assert_eq!(status(&store, &own).await, SubscriptionStatus::Active);

    let paused = app.send(act("pause", &xsrf)).await;
    assert_eq!(paused.status, StatusCode::OK, "{}", paused.text());
    assert!(
        paused.text().contains(SUBSCRIPTION_PAUSED),
        "{}",
        paused.text()
    );
    assert!(paused.text().contains("<dd>Paused</dd>"));
    assert_eq!(status(&store, &own).await, SubscriptionStatus::Paused);

    let resumed = app.send(act("resume", &xsrf)).await;
    assert!(resumed.text().contains(SUBSCRIPTION_RESUMED));
    assert_eq!(status(&store, &own).await, SubscriptionStatus::Active);

    let cancelled = app.send(act("cancel", &xsrf)).await;
    assert!(cancelled.text().contains(SUBSCRIPTION_CANCELLED));
    assert_eq!(status(&store, &own).await, SubscriptionStatus::Cancelled);
    let html = cancelled.text();
    assert!(
        !html.contains(&format!("/account/subscriptions/{own}/cancel")),
        "{html}"
    );

    let again = app.send(act("resume", &xsrf)).await;
    assert_eq!(again.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_subscription_of_another_address_cannot_be_changed_from_an_account() {
    let (app, store, _, other) = app().await;
    let session = app.member("ada@example.com").await;
    let xsrf = app.xsrf(&session).await;
    for action in ["cancel", "pause", "card"] {
        let answer = app
            .send(form_post(
                &format!("/account/subscriptions/{other}/{action}"),
                &[("xsrf", &xsrf)],
                Some(&session),
            ))
            .await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{action}");
        assert!(answer.text().contains(SUBSCRIPTION_NOT_FOUND));
    }
    assert_eq!(status(&store, &other).await, SubscriptionStatus::Active);
    let anonymous = app
        .send(form_post(
            &format!("/account/subscriptions/{other}/cancel"),
            &[("xsrf", &xsrf)],
            None,
        ))
        .await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER, "sent to sign in");
}
