//! Donations paid in Stripe's own card fields through the router, with the production Stripe
//! gateway pointed at the local fake: the donation page loads the fields' script, alone names
//! Stripe's hosts in its Content-Security-Policy, and answers a form posted without
//! JavaScript with what was typed; the island's post opens one PaymentIntent per attempt and
//! keeps the contribution pending; the return address settles it on Stripe's own word (a
//! 3-D Secure approval pays it, a failed verification says why, a forged intent settles
//! nothing), and so does Stripe's webhook, once, whichever comes first. A card declined in
//! the fields leaves the contribution waiting for another card on the same intent.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::checkout::{
    CartService, ContributionPayment, ContributionStore, DONATION_CARD_FIELDS_NEED_JAVASCRIPT,
    DonationService, IdempotencyKey, InMemoryCommerceStore, InMemoryContributionStore,
};
use vitrine_core::pages::PageService;
use vitrine_http::AppState;
use vitrine_services::stripe_fake::{
    BrowserStep, FAKE_PUBLISHABLE_KEY, FAKE_SECRET_KEY, FakeStripe, cards,
};
use vitrine_services::{
    StripeBrowser, StripeGateway, StripePublishableKey, StripeSecretKey, StripeWebhookSecret,
    StripeWebhooks,
};

use crate::cart::{form, idempotency_key};
use crate::support::{Answer, config, fixture_assets, send};

const WEBHOOK_SECRET: &str = "whsec_donations";

/// Where the pages are said to be, for the absolute return address Stripe needs.
const SITE: &str = "http://shop.test";

const DONATE_PATH: &str = "/checkout/donate?donatePageId=kiln-fund";
const INTENT_PATH: &str = "/checkout/donate/card-payment?donatePageId=kiln-fund";
const DONOR: &str = "amount=2500&name=Ada+Donor&email=ada%40example.com";

struct Donations {
    app: axum::Router,
    contributions: Arc<InMemoryContributionStore>,
    donations: Arc<DonationService>,
    fake: FakeStripe,
}

/// The kiln's donation page paying through Stripe's fields on the fake, mailing receipts.
async fn donations() -> Donations {
    let repository = crate::donate_subscribe::kiln_and_club().await;
    let fake = FakeStripe::start().await;
    let gateway = Arc::new(
        StripeGateway::new(
            fake.base().clone(),
            StripeSecretKey::parse(FAKE_SECRET_KEY).unwrap(),
        )
        .with_browser(StripeBrowser {
            publishable_key: StripePublishableKey::parse(FAKE_PUBLISHABLE_KEY).unwrap(),
            script_url: fake.base().join("/v3/").unwrap(),
        }),
    );
    let contributions = Arc::new(InMemoryContributionStore::new());
    let donations = Arc::new(
        DonationService::new(repository.clone(), contributions.clone(), gateway.clone())
            .with_receipts(),
    );
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        vitrine_core::checkout::conformance::flat_rate_rules(),
    )
    .with_payments(gateway);
    let state = AppState::new(
        Arc::new(PageService::new(repository.clone())),
        repository,
        Arc::new(fixture_assets()),
        config(),
    )
    .with_carts(Arc::new(carts))
    .with_donations(donations.clone())
    .with_payment_reports(Arc::new(StripeWebhooks::new(vec![
        StripeWebhookSecret::parse(WEBHOOK_SECRET).unwrap(),
    ])));
    Donations {
        app: vitrine_http::router(state),
        contributions,
        donations,
        fake,
    }
}

/// The island's post of the donation form `fields` (no card) under the page's key.
fn open_request(fields: &str, key: &str) -> Request<Body> {
    let mut request = form(
        "POST",
        INTENT_PATH,
        &format!("{fields}&idempotencyKey={key}"),
        None,
    );
    request
        .headers_mut()
        .insert("accept", "application/json".parse().unwrap());
    request
}

/// A fresh donation page's key.
async fn page_key(donations: &Donations) -> String {
    let page = send(&donations.app, form("GET", DONATE_PATH, "", None)).await;
    idempotency_key(&page.text())
}

/// The island's post under `key`: the client secret and the absolute return address.
async fn open(donations: &Donations, key: &str) -> (String, String) {
    let answer = send(&donations.app, open_request(DONOR, key)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let step = answer.json();
    assert_eq!(step["next"], "confirm", "{step}");
    // The island updates the fields to the amount the intent carries before confirming.
    let secret = step["clientSecret"].as_str().unwrap();
    let intent = donations
        .fake
        .payment_intents()
        .into_iter()
        .find(|intent| secret.starts_with(&format!("{}_secret_", intent.id)))
        .expect("the intent of the secret");
    assert_eq!(step["amountMinor"], intent.amount, "{step}");
    (
        step["clientSecret"].as_str().unwrap().to_owned(),
        format!("{SITE}{}", step["returnPath"].as_str().unwrap()),
    )
}

/// The donor's browser arriving at an address of this site.
async fn visit(donations: &Donations, url: &str) -> Answer {
    let path = url.strip_prefix(SITE).unwrap_or(url);
    send(&donations.app, form("GET", path, "", None)).await
}

/// The contribution a return address names, as the store holds it.
async fn stored(donations: &Donations, return_url: &str) -> vitrine_core::checkout::Contribution {
    let id = url::Url::parse(return_url)
        .unwrap()
        .query_pairs()
        .find(|(name, _)| name == "contribution")
        .map(|(_, value)| value.into_owned())
        .expect("the return address names the contribution");
    donations
        .contributions
        .contribution(&id)
        .await
        .unwrap()
        .expect("the contribution is kept")
}

fn intent_of(secret: &str) -> &str {
    secret.split("_secret_").next().unwrap()
}

/// A 3-D Secure card confirmed in the browser, and the bank's answer; where the bank sends
/// the donor back to.
async fn through_the_bank(
    donations: &Donations,
    secret: &str,
    return_url: &str,
    approve: bool,
) -> String {
    let step = donations
        .fake
        .confirm_in_browser(secret, cards::AUTHENTICATION_REQUIRED, return_url)
        .await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    donations.fake.answer_bank(&bank, approve).await
}

/// Stripe's last event, delivered to the webhook with a fresh signature.
async fn deliver_last_event(donations: &Donations) -> Answer {
    let event = donations.fake.events().last().cloned().expect("an event");
    let body = event.body.to_string();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let signature = StripeWebhookSecret::parse(WEBHOOK_SECRET)
        .unwrap()
        .signature_header(now, body.as_bytes());
    send(
        &donations.app,
        Request::post("/api/commerce/stripe/webhook")
            .header("content-type", "application/json")
            .header("stripe-signature", signature)
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn the_donation_page_shows_stripes_fields_and_alone_names_stripes_hosts_in_its_policy() {
    let donations = donations().await;
    let page = send(&donations.app, form("GET", DONATE_PATH, "", None)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.page_context()["pageType"], 203);
    let html = page.text();
    let script = format!(
        "<script src=\"{}v3/\" id=\"stripe-js\"></script>",
        donations.fake.base()
    );
    assert!(html.contains(&script), "{html}");
    assert!(html.contains("data-island=\"card-payment\""), "{html}");
    assert!(
        html.contains("/checkout/donate/card-payment?donatePageId=kiln-fund"),
        "{html}"
    );
    assert!(html.contains(FAKE_PUBLISHABLE_KEY), "{html}");
    assert!(
        html.contains(DONATION_CARD_FIELDS_NEED_JAVASCRIPT),
        "{html}"
    );
    assert!(!html.contains("name=\"cardNumber\""), "{html}");
    assert!(!html.contains("name=\"cardCvc\""), "{html}");
    let origin = donations.fake.base().origin().ascii_serialization();
    let policy = page.header("content-security-policy");
    for directive in ["script-src 'self'", "connect-src 'self'", "frame-src"] {
        assert!(
            policy.contains(&format!("{directive} {origin}")),
            "{directive}: {policy}"
        );
    }
    for path in ["/kiln", "/"] {
        let other = send(&donations.app, form("GET", path, "", None)).await;
        let policy = other.header("content-security-policy");
        assert!(!policy.contains(&origin), "{path}: {policy}");
    }
}

#[tokio::test]
async fn a_donation_posted_without_javascript_says_so_and_keeps_what_was_typed() {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let posted = send(
        &donations.app,
        form(
            "POST",
            DONATE_PATH,
            &format!("{DONOR}&cardNumber=4242424242424242&idempotencyKey={key}"),
            None,
        ),
    )
    .await;
    assert_eq!(posted.status, StatusCode::BAD_REQUEST);
    let html = posted.text();
    assert!(
        html.contains(&format!(
            "role=\"alert\" id=\"checkout-alert\">{DONATION_CARD_FIELDS_NEED_JAVASCRIPT}"
        )),
        "{html}"
    );
    assert!(html.contains("value=\"Ada Donor\""), "{html}");
    assert!(html.contains("value=\"ada@example.com\""), "{html}");
    assert!(html.contains("value=\"2500\" checked>"), "{html}");
    assert!(!html.contains("4242424242424242"), "{html}");
    assert_eq!(donations.fake.requests(), 0, "Stripe was not asked");
}

#[tokio::test]
async fn one_intent_per_attempt_keeps_the_contribution_pending_and_a_wrong_form_opens_none() {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    let (again, _) = open(&donations, &key).await;
    assert_eq!(secret, again, "a double click confirms the same intent");
    let intents = donations.fake.payment_intents();
    assert_eq!(intents.len(), 1, "{intents:?}");
    assert_eq!(intents[0].amount, 2500);
    assert_eq!(intents[0].currency, "usd");
    assert_eq!(intents[0].metadata["vitrine_idempotency_key"], key);
    assert_eq!(intents[0].card_last4, "", "no card went from the server");
    let contribution = stored(&donations, &return_url).await;
    assert_eq!(
        contribution.payment,
        ContributionPayment::Pending {
            intent_id: intent_of(&secret).to_owned()
        }
    );

    let other = page_key(&donations).await;
    let refused = send(
        &donations.app,
        open_request("amount=other&otherAmount=0.50&name=&email=ada", &other),
    )
    .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let step = refused.json();
    assert_eq!(step["next"], "refused", "{step}");
    for field in ["amount", "name", "email"] {
        assert!(step["fieldErrors"][field].is_string(), "{field}: {step}");
    }
    let unknown = send(
        &donations.app,
        form(
            "POST",
            "/checkout/donate/card-payment?donatePageId=nope",
            &format!("{DONOR}&idempotencyKey={other}"),
            None,
        ),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert_eq!(donations.fake.payment_intents().len(), 1);
    let none = IdempotencyKey::parse(other).unwrap();
    assert_eq!(
        donations
            .contributions
            .contribution_by_key(&none)
            .await
            .unwrap(),
        None
    );
}

#[tokio::test]
async fn a_3d_secure_approval_confirms_the_contribution_once_and_the_return_before_it_says_pending()
{
    let donations = donations().await;
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    let step = donations
        .fake
        .confirm_in_browser(&secret, cards::AUTHENTICATION_REQUIRED, &return_url)
        .await;
    let BrowserStep::Bank(bank) = step else {
        panic!("the bank's page: {step:?}");
    };
    // Back before the bank answered: the contribution's page says it waits for the bank.
    let early = visit(
        &donations,
        &format!("{return_url}&payment_intent={}", intent_of(&secret)),
    )
    .await;
    assert_eq!(early.status, StatusCode::SEE_OTHER, "{}", early.text());
    let pending = visit(&donations, early.header("location")).await;
    assert_eq!(pending.status, StatusCode::OK);
    assert_eq!(pending.page_context()["pageType"], 204);
    let html = pending.text();
    assert!(
        html.contains("Your contribution is waiting for your bank"),
        "{html}"
    );
    assert!(html.contains("We are waiting for your bank"), "{html}");
    assert!(donations.contributions.receipts().is_empty());

    let back = donations.fake.answer_bank(&bank, true).await;
    let resumed = visit(&donations, &back).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let location = resumed.header("location").to_owned();
    assert!(
        location.starts_with("/commerce/contributions/contribution-")
            && location.contains("?link="),
        "{location}"
    );
    let confirmed = visit(&donations, &location).await;
    assert_eq!(confirmed.page_context()["pageType"], 204);
    let html = confirmed.text();
    assert!(html.contains("Thank you for your contribution"), "{html}");
    assert!(
        html.contains("Your contribution of $25.00 to Support the community kiln was received."),
        "{html}"
    );
    let contribution = stored(&donations, &return_url).await;
    assert_eq!(contribution.payment_id(), intent_of(&secret));
    // A reload, then Stripe's webhook: settled once, one receipt.
    visit(&donations, &back).await;
    let delivered = deliver_last_event(&donations).await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    assert_eq!(delivered.json()["outcome"], "duplicate");
    assert_eq!(donations.contributions.receipts().len(), 1);
}

#[tokio::test]
async fn a_failed_verification_says_why_and_leads_back_to_the_donation_page() {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    let back = through_the_bank(&donations, &secret, &return_url, false).await;
    let failed = visit(&donations, &back).await;
    assert_eq!(failed.status, StatusCode::SEE_OTHER, "{}", failed.text());
    let page = visit(&donations, failed.header("location")).await;
    assert_eq!(page.page_context()["pageType"], 204);
    let html = page.text();
    assert!(
        html.contains("Your contribution did not go through"),
        "{html}"
    );
    assert!(
        html.contains("Your bank could not verify this payment, so nothing was charged."),
        "{html}"
    );
    assert!(
        html.contains("href=\"/checkout/donate?donatePageId=kiln-fund\""),
        "a way back to try again: {html}"
    );
    assert!(!html.contains("was received"), "{html}");
    assert!(matches!(
        stored(&donations, &return_url).await.payment,
        ContributionPayment::Failed { .. }
    ));
    assert!(donations.contributions.receipts().is_empty());

    // A card declined at once fails the same way.
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    let step = donations
        .fake
        .confirm_in_browser(&secret, cards::DECLINED, &return_url)
        .await;
    let BrowserStep::Declined { return_url, .. } = step else {
        panic!("declined: {step:?}");
    };
    let declined = visit(&donations, &return_url).await;
    let html = visit(&donations, declined.header("location")).await.text();
    assert!(html.contains("Your card was declined."), "{html}");
}

#[tokio::test]
async fn a_return_naming_another_contributions_intent_settles_nothing() {
    let donations = donations().await;
    let alice_key = page_key(&donations).await;
    let (_, alice_return) = open(&donations, &alice_key).await;
    let mallory_key = page_key(&donations).await;
    let (mallory_secret, mallory_return) = open(&donations, &mallory_key).await;
    through_the_bank(&donations, &mallory_secret, &mallory_return, true).await;
    let forged = visit(
        &donations,
        &format!(
            "{alice_return}&payment_intent={}",
            intent_of(&mallory_secret)
        ),
    )
    .await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND);
    assert!(
        forged.text().contains("We could not find this payment."),
        "{}",
        forged.text()
    );
    assert!(matches!(
        stored(&donations, &alice_return).await.payment,
        ContributionPayment::Pending { .. }
    ));
    let bare = visit(&donations, "/checkout/donate/card-payment/return").await;
    assert_eq!(bare.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn stripes_webhook_settles_a_contribution_whose_donor_never_came_back_once() {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    // The donor paid and closed the tab before the return address loaded.
    let step = donations
        .fake
        .confirm_in_browser(&secret, cards::SUCCEEDS, &return_url)
        .await;
    let BrowserStep::Return(back) = step else {
        panic!("straight back: {step:?}");
    };
    let event = donations.fake.events().last().cloned().expect("an event");
    assert_eq!(event.kind, "payment_intent.succeeded");
    let delivered = deliver_last_event(&donations).await;
    assert_eq!(delivered.status, StatusCode::OK, "{}", delivered.text());
    assert_eq!(delivered.json()["outcome"], "recorded");
    let contribution = stored(&donations, &return_url).await;
    assert_eq!(contribution.payment_id(), intent_of(&secret));
    assert_eq!(donations.contributions.receipts().len(), 1);
    // Delivered again, and the donor's late return: nothing more.
    let again = deliver_last_event(&donations).await;
    assert_eq!(again.json()["outcome"], "duplicate");
    let late = visit(&donations, &back).await;
    assert_eq!(late.status, StatusCode::SEE_OTHER);
    let html = visit(&donations, late.header("location")).await.text();
    assert!(html.contains("was received"), "{html}");
    assert_eq!(donations.contributions.receipts().len(), 1, "one receipt");
}

/// The island telling the server that Stripe declined a card for `return_url`'s
/// contribution, its intent `intent`.
async fn tell_declined(donations: &Donations, return_url: &str, intent: &str) -> Answer {
    let contribution = url::Url::parse(return_url)
        .unwrap()
        .query_pairs()
        .find(|(name, _)| name == "contribution")
        .map(|(_, value)| value.into_owned())
        .unwrap();
    let mut request = form(
        "POST",
        "/checkout/donate/card-payment/declined",
        &format!("contribution={contribution}&paymentIntent={intent}"),
        None,
    );
    request
        .headers_mut()
        .insert("accept", "application/json".parse().unwrap());
    send(&donations.app, request).await
}

/// What was left before: a declined card failed the contribution at the return address, so
/// the donor had to start again. Now the island is told of the decline, the donor reads why
/// and confirms the same intent with another card, and is thanked once.
#[tokio::test]
async fn a_declined_card_says_why_and_another_card_on_the_same_intent_gives_once() {
    let donations = donations().await;
    let page = send(&donations.app, form("GET", DONATE_PATH, "", None)).await;
    assert!(
        page.text()
            .contains("/checkout/donate/card-payment/declined"),
        "the island is given the declined path: {}",
        page.text()
    );
    let key = idempotency_key(&page.text());
    let (secret, return_url) = open(&donations, &key).await;
    let step = donations
        .fake
        .confirm_in_browser(&secret, cards::DECLINED, &return_url)
        .await;
    assert!(matches!(step, BrowserStep::Declined { .. }), "{step:?}");
    // Stripe's report of the decline leaves the contribution waiting for another card.
    let event = donations.fake.events().last().cloned().unwrap();
    assert_eq!(event.kind, "payment_intent.payment_failed");
    let reported = deliver_last_event(&donations).await;
    assert_eq!(reported.status, StatusCode::OK, "{}", reported.text());
    assert!(matches!(
        stored(&donations, &return_url).await.payment,
        ContributionPayment::Pending { .. }
    ));
    let told = tell_declined(&donations, &return_url, intent_of(&secret)).await;
    assert_eq!(told.status, StatusCode::OK, "{}", told.text());
    let answer = told.json();
    assert_eq!(answer["next"], "tryAgain", "{answer}");
    assert_eq!(
        answer["message"],
        "Your card was declined. Please use another card."
    );
    assert!(matches!(
        stored(&donations, &return_url).await.payment,
        ContributionPayment::Pending { .. }
    ));
    // The next submit of the same form answers the same intent, which another card pays.
    let (again, same_return) = open(&donations, &key).await;
    assert_eq!((&again, &same_return), (&secret, &return_url));
    let step = donations
        .fake
        .confirm_in_browser(&secret, cards::SUCCEEDS, &return_url)
        .await;
    let BrowserStep::Return(back) = step else {
        panic!("straight back: {step:?}");
    };
    let resumed = visit(&donations, &back).await;
    assert_eq!(resumed.status, StatusCode::SEE_OTHER, "{}", resumed.text());
    let html = visit(&donations, resumed.header("location")).await.text();
    assert!(html.contains("was received"), "{html}");
    let contribution = stored(&donations, &return_url).await;
    assert_eq!(contribution.payment_id(), intent_of(&secret));
    assert_eq!(donations.fake.payment_intents().len(), 1, "one intent");
    assert_eq!(donations.contributions.receipts().len(), 1, "thanked once");
    // A decline told after the payment leads to the contribution's page.
    let late = tell_declined(&donations, &return_url, intent_of(&secret)).await;
    let late = late.json();
    assert_eq!(late["next"], "order", "{late}");
    assert!(
        late["orderPath"].as_str().unwrap().starts_with(&format!(
            "/commerce/contributions/{}/confirmed?",
            contribution.id
        )),
        "{late}"
    );
}

#[tokio::test]
async fn the_confirm_step_carries_the_amount_the_donor_chose_and_another_after_a_decline_is_refused()
 {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let answer = send(
        &donations.app,
        open_request(
            "amount=other&otherAmount=40&name=Ada+Donor&email=ada%40example.com",
            &key,
        ),
    )
    .await;
    let step = answer.json();
    assert_eq!(step["next"], "confirm", "{step}");
    assert_eq!(step["amountMinor"], 4_000, "the fields are updated to it");
    let secret = step["clientSecret"].as_str().unwrap().to_owned();
    let return_url = format!("{SITE}{}", step["returnPath"].as_str().unwrap());
    donations
        .fake
        .confirm_in_browser(&secret, cards::DECLINED, &return_url)
        .await;
    // The donor picks $25.00 instead before the next card: the intent carries $40.00.
    let other = send(&donations.app, open_request(DONOR, &key)).await;
    assert_eq!(other.status, StatusCode::BAD_REQUEST, "{}", other.text());
    let refused = other.json();
    assert_eq!(refused["next"], "refused", "{refused}");
    assert_eq!(
        refused["fieldErrors"]["amount"],
        "This donation was started for $40.00, the amount your first card was tried with. Choose $40.00 to try another card, or reload the page to give another amount."
    );
    assert_eq!(donations.fake.payment_intents().len(), 1);
}

#[tokio::test]
async fn a_decline_told_of_another_contributions_intent_or_from_another_site_is_refused() {
    let donations = donations().await;
    let alice_key = page_key(&donations).await;
    let (_, alice_return) = open(&donations, &alice_key).await;
    let mallory_key = page_key(&donations).await;
    let (mallory_secret, _) = open(&donations, &mallory_key).await;
    let forged = tell_declined(&donations, &alice_return, intent_of(&mallory_secret)).await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND, "{}", forged.text());
    assert_eq!(forged.json()["next"], "refused");
    let unknown = tell_declined(
        &donations,
        &format!("{SITE}/r?contribution=contribution-none"),
        intent_of(&mallory_secret),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let mut cross_site = form(
        "POST",
        "/checkout/donate/card-payment/declined",
        "contribution=x&paymentIntent=y",
        None,
    );
    cross_site
        .headers_mut()
        .insert("sec-fetch-site", "cross-site".parse().unwrap());
    let refused = send(&donations.app, cross_site).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    assert!(matches!(
        stored(&donations, &alice_return).await.payment,
        ContributionPayment::Pending { .. }
    ));
}

#[tokio::test]
async fn stripes_report_of_a_cancelled_intent_fails_the_contribution_once() {
    let donations = donations().await;
    let key = page_key(&donations).await;
    let (secret, return_url) = open(&donations, &key).await;
    let contribution = stored(&donations, &return_url).await;
    let cancelled = donations
        .donations
        .cancel_abandoned_browser_donations(vitrine_core::cart::Timestamp(
            contribution.created.millis() + 31 * 60 * 1000,
        ))
        .await
        .unwrap();
    assert_eq!(cancelled, 1);
    let event = donations.fake.events().last().cloned().unwrap();
    assert_eq!(event.kind, "payment_intent.canceled");
    let failed = stored(&donations, &return_url).await;
    assert!(
        matches!(&failed.payment, ContributionPayment::Failed { .. }),
        "{failed:?}"
    );
    // Stripe's report of the cancellation, after the clean-up settled it, changes nothing.
    let reported = deliver_last_event(&donations).await;
    assert_eq!(reported.status, StatusCode::OK, "{}", reported.text());
    assert_eq!(stored(&donations, &return_url).await, failed);
    let _ = secret;
}
