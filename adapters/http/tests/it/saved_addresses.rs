//! Saved addresses through the router: a signed-in shopper who ticks "Save this address for
//! next time" finds the address filled in at their next checkout and listed on the account
//! page, whose remove button (with the session's XSRF token) forgets it; anonymous shoppers
//! are offered no box.

use std::sync::Arc;

use axum::http::StatusCode;
use vitrine_core::checkout::InMemoryCommerceStore;

use crate::cart::idempotency_key;
use crate::members::{Members, form_post, hidden, members_with, page};
use crate::paid_members::{CARD, paid_site, plan_checkout, with_cookies, with_store_in};

const UNTICKED_BOX: &str = "name=\"saveAddress\" type=\"checkbox\">";
const TICKED_BOX: &str = "name=\"saveAddress\" type=\"checkbox\" checked>";

/// Buys the plan as the signed-in `session`, ticking the box when `save` says so.
async fn buy(app: &Members, session: &str, save: bool) {
    let (cart, html) = plan_checkout(app, Some(session)).await;
    let save = if save { "&saveAddress=on" } else { "" };
    let body = format!(
        "{CARD}&email=ada%40example.com&idempotencyKey={}{save}",
        idempotency_key(&html)
    );
    let path = format!("/checkout/subscribe?cartToken={cart}");
    let placed = app
        .send(with_cookies("POST", &path, &body, &cart, Some(session)))
        .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
}

#[tokio::test]
async fn a_ticked_address_prefills_the_next_checkout_until_removed_on_the_account_page() {
    let app = members_with(&paid_site(), |state, repository| {
        with_store_in(state, repository, Arc::new(InMemoryCommerceStore::new()))
    })
    .await;
    let (_, anonymous) = plan_checkout(&app, None).await;
    assert!(!anonymous.contains("saveAddress"), "{anonymous}");

    let session = app.member("ada@example.com").await;
    let (_, first) = plan_checkout(&app, Some(&session)).await;
    assert!(first.contains(UNTICKED_BOX), "{first}");
    assert!(first.contains("Save this address for next time"), "{first}");

    // Without the box ticked nothing is saved.
    buy(&app, &session, false).await;
    let account = app.send(page("/account", Some(&session))).await.text();
    assert!(
        account.contains("No shipping address is saved."),
        "{account}"
    );

    buy(&app, &session, true).await;
    let account = app.send(page("/account", Some(&session))).await.text();
    assert!(
        account.contains("Ada Member<br>1 Main St<br>Boston MA 02139<br>US"),
        "{account}"
    );
    let (_, next) = plan_checkout(&app, Some(&session)).await;
    assert!(next.contains("value=\"1 Main St\""), "{next}");
    assert!(next.contains("value=\"Ada Member\""), "{next}");
    assert!(next.contains(TICKED_BOX), "ticked once saved: {next}");

    let refused = app
        .send(form_post("/account/address/remove", &[], Some(&session)))
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let xsrf = hidden(&account, "xsrf");
    let removed = app
        .send(form_post(
            "/account/address/remove",
            &[("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(removed.status, StatusCode::OK, "{}", removed.text());
    let text = removed.text();
    assert!(
        text.contains("Your saved address has been removed."),
        "{text}"
    );
    assert!(text.contains("No shipping address is saved."), "{text}");
    let (_, after) = plan_checkout(&app, Some(&session)).await;
    assert!(!after.contains("value=\"1 Main St\""), "{after}");
    assert!(after.contains(UNTICKED_BOX), "{after}");
}
