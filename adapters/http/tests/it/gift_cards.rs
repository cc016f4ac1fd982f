//! Gift cards through the router: the gift card checkout page and its bad links, buying a
//! card and reading its code on the order pages, then paying part of a later order with it.
//! The fixture site sells the tote ($20.00 on sale, 3 in stock) and the gift card `gift`
//! ($25 and $50).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::{ShippingOption, ShippingRate, StoreRules};
use vitrine_core::checkout::conformance::fixture_gift_card;
use vitrine_core::checkout::{CartService, InMemoryCommerceStore, OrderLinkKey};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::{AppState, RandomGiftCardCodes};

use crate::support::{Answer, fetch, send, site};

/// The key the shop signs order links with.
const LINK_KEY: OrderLinkKey = OrderLinkKey::new([9; 32]);

async fn shop() -> axum::Router {
    let repository = Arc::new(MemorySiteRepository::new());
    let mut site = site();
    site.items.push(fixture_gift_card());
    repository.replace_site(&site).await.unwrap();
    let rules = StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard shipping".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    };
    let carts = CartService::new(
        repository.clone(),
        Arc::new(InMemoryCommerceStore::new()),
        rules,
    )
    .with_gift_card_codes(Arc::new(RandomGiftCardCodes));
    let pages = Arc::new(PageService::new(repository.clone()));
    vitrine_http::router(
        AppState::new(
            pages,
            repository,
            Arc::new(crate::support::fixture_assets()),
            crate::support::config(),
        )
        .with_carts(Arc::new(carts))
        .with_order_link_key(LINK_KEY),
    )
}

fn post(path: &str, body: &str, token: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin");
    if let Some(token) = token {
        request = request.header("cookie", format!("vitrine_cart={token}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

fn get_with(path: &str, token: &str) -> Request<Body> {
    Request::get(path)
        .header("cookie", format!("vitrine_cart={token}"))
        .body(Body::empty())
        .unwrap()
}

/// The text between `before` and the next `<` after it.
fn text_after(html: &str, before: &str) -> String {
    let start = html
        .find(before)
        .unwrap_or_else(|| panic!("no {before} in {html}"))
        + before.len();
    html[start..start + html[start..].find('<').unwrap()].to_owned()
}

fn idempotency_key(html: &str) -> String {
    text_after(html, "name=\"idempotencyKey\" value=\"")[..32].to_owned()
}

const GIFT_FORM: &str = "websiteId=site&giftCardProductId=gift&sku=GIFT-25\
     &recipientName=Bea&recipientEmail=bea%40example.com&message=Happy+birthday%21";

/// The address, shipping and the paying test card, without a key.
const CHECKOUT_FIELDS: &str = "email=ada%40example.com&name=Ada+Shopper&addressLine1=1+Main+St\
     &city=Boston&region=MA&postalCode=02139&country=US&shippingOption=standard\
     &cardNumber=4242+4242+4242+4242&cardExpiry=12%2F40&cardCvc=123";

/// Checks out the cart under `token` with `fields`; answers the placing request's answer.
async fn check_out(app: &axum::Router, token: &str, fields: &str) -> Answer {
    let entry = send(app, post("/commerce/goto-checkout", "", Some(token))).await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER, "{}", entry.text());
    let checkout = send(app, get_with("/checkout", token)).await;
    let key = idempotency_key(&checkout.text());
    let body = format!("{fields}&idempotencyKey={key}");
    send(app, post("/checkout", &body, Some(token))).await
}

/// Buys a $25 gift card for Bea; answers the confirmation page.
/// The confirmation page of a bought gift card, and the buyer's cart token.
async fn buy_gift_card(app: &axum::Router) -> (String, String) {
    let added = send(app, post("/checkout/giftcard", GIFT_FORM, None)).await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    // Buying a gift card is the step into checkout: its line is held at once.
    assert_eq!(added.header("location"), "/checkout");
    let token = added.cart_cookie();
    let checkout = send(app, get_with("/checkout", &token)).await;
    let html = checkout.text();
    assert!(html.contains("For Bea (bea@example.com)"), "{html}");
    assert!(
        !html.contains("name=\"giftCardCode\""),
        "a gift card cannot pay for gift cards, so the field is not offered: {html}"
    );
    let placed = check_out(
        app,
        &token,
        "email=ada%40example.com&cardNumber=4242424242424242&cardExpiry=12%2F40&cardCvc=123",
    )
    .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    let confirmed = send(app, get_with(placed.header("location"), &token)).await;
    assert_eq!(confirmed.status, StatusCode::OK);
    (confirmed.text(), token)
}

#[tokio::test]
async fn the_gift_card_page_offers_the_amounts_with_the_links_amount_chosen() {
    let app = shop().await;
    let page = fetch(
        &app,
        "/checkout/giftcard?websiteId=site&giftCardProductId=gift",
    )
    .await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("\"pageType\":201"), "{html}");
    assert!(
        html.contains("<h1 class=\"commerce-page__title\">Gift card</h1>"),
        "{html}"
    );
    assert!(html.contains("value=\"GIFT-25\"> $25.00</label>"), "{html}");
    assert!(html.contains("value=\"GIFT-50\"> $50.00</label>"), "{html}");
    assert!(
        !html.contains(" checked"),
        "no amount is chosen yet: {html}"
    );
    for label in [
        "Recipient’s name (optional)",
        "Recipient’s email (optional)",
        "Message (optional)",
    ] {
        assert!(html.contains(label), "{label}: {html}");
    }
    assert_eq!(page.header("cache-control"), "no-store");

    let chosen = fetch(
        &app,
        "/checkout/giftcard?websiteId=site&giftCardProductId=gift&sku=GIFT-50",
    )
    .await;
    assert!(
        chosen.text().contains("value=\"GIFT-50\" checked"),
        "{}",
        chosen.text()
    );
}

#[tokio::test]
async fn bad_gift_card_links_get_a_page_that_says_what_is_wrong() {
    let app = shop().await;
    for path in [
        "/checkout/giftcard",
        "/checkout/giftcard?websiteId=site",
        "/checkout/giftcard?giftCardProductId=gift",
        "/checkout/giftcard?websiteId=&giftCardProductId=gift",
    ] {
        let answer = fetch(&app, path).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{path}");
        assert!(
            answer.text().contains("This gift card link is incomplete."),
            "{path}"
        );
    }
    for path in [
        "/checkout/giftcard?websiteId=elsewhere&giftCardProductId=gift",
        "/checkout/giftcard?websiteId=site&giftCardProductId=tote",
        "/checkout/giftcard?websiteId=site&giftCardProductId=no+such+thing%21",
        "/checkout/giftcard?websiteId=site&giftCardProductId=post-draft",
    ] {
        let answer = fetch(&app, path).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            answer.text().contains("This gift card is not available."),
            "{path}"
        );
    }
    let amount = fetch(
        &app,
        "/checkout/giftcard?websiteId=site&giftCardProductId=gift&sku=GIFT-99",
    )
    .await;
    assert_eq!(amount.status, StatusCode::NOT_FOUND);
    let html = amount.text();
    assert!(html.contains("This amount is not available."), "{html}");
    assert!(
        html.contains("value=\"GIFT-50\""),
        "the amounts are offered: {html}"
    );
}

#[tokio::test]
async fn the_gift_card_form_keeps_what_was_typed_and_names_each_error() {
    let app = shop().await;
    let body = "websiteId=site&giftCardProductId=gift&recipientName=Bea\
         &recipientEmail=bea%40&message=Hi+%3Cb%3Ethere%3C%2Fb%3E";
    let answer = send(&app, post("/checkout/giftcard", body, None)).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let cookies: Vec<_> = answer.headers.get_all("set-cookie").iter().collect();
    assert!(
        !cookies
            .iter()
            .any(|cookie| cookie.to_str().unwrap().starts_with("vitrine_cart=")),
        "no cart was made: {cookies:?}"
    );
    let html = answer.text();
    assert!(html.contains("Choose an amount."), "{html}");
    assert!(html.contains("Email is not valid."), "{html}");
    assert!(
        html.contains(
            "id=\"checkout-recipientName\" name=\"recipientName\" type=\"text\" value=\"Bea\""
        ),
        "{html}"
    );
    assert!(
        html.contains("Hi &#60;b&#62;there&#60;/b&#62;</textarea>")
            || html.contains("Hi &lt;b&gt;there&lt;/b&gt;</textarea>"),
        "{html}"
    );
}

#[tokio::test]
async fn a_bought_gift_card_shows_its_code_and_pays_part_of_a_later_order() {
    let app = shop().await;
    let (confirmation, buyer) = buy_gift_card(&app).await;
    assert!(confirmation.contains("\"pageType\":202"), "{confirmation}");
    assert!(confirmation.contains("Your gift cards"), "{confirmation}");
    assert!(
        confirmation.contains("For Bea (bea@example.com)"),
        "{confirmation}"
    );
    assert!(confirmation.contains("Happy birthday!"), "{confirmation}");
    let code = text_after(&confirmation, "<code class=\"gift-card__code\">");
    assert_eq!(code.len(), 19, "{code}");
    let order_path = text_after(&confirmation, "Order number: <strong>");
    let status = send(
        &app,
        get_with(&format!("/commerce/orders/{order_path}"), &buyer),
    )
    .await
    .text();
    let last4 = &code[15..];
    assert!(
        status.contains(&format!(
            "<code class=\"gift-card__code\">ending {last4}</code>"
        )),
        "the status page lists the card by its last 4: {status}"
    );
    assert!(!status.contains(&code), "{status}");

    // Another shopper pays for three totes ($60 and $5 shipping) partly with the card,
    // typed in lower case with spaces.
    let added = send(
        &app,
        post("/cart", "itemId=tote&sku=TOTE-1&quantity=3", None),
    )
    .await;
    let token = added.cart_cookie();
    let checkout = send(&app, get_with("/checkout", &token)).await.text();
    assert!(
        checkout.contains("id=\"checkout-giftCardCode\""),
        "{checkout}"
    );
    let typed = code.to_lowercase().replace('-', "+");
    let placed = check_out(
        &app,
        &token,
        &format!("{CHECKOUT_FIELDS}&giftCardCode={typed}"),
    )
    .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    let order = send(&app, get_with(placed.header("location"), &token))
        .await
        .text();
    assert!(
        order.contains(&format!(
            "<dt>Gift card ending {last4}</dt><dd>−$25.00</dd>"
        )),
        "{order}"
    );
    assert!(
        order.contains("<dt>Rest, charged to your card</dt><dd>$40.00</dd>"),
        "{order}"
    );
    assert!(order.contains("Total: $65.00"), "{order}");

    // The card is used up: the buyer's order page shows it, and it pays for nothing more.
    let status = send(
        &app,
        get_with(&format!("/commerce/orders/{order_path}"), &buyer),
    )
    .await
    .text();
    assert!(status.contains("Balance: $0.00"), "{status}");
}

#[tokio::test]
async fn a_card_that_pays_everything_needs_no_card_and_wrong_codes_are_named_beside_the_field() {
    let app = shop().await;
    let (confirmation, _) = buy_gift_card(&app).await;
    let code = text_after(&confirmation, "<code class=\"gift-card__code\">");
    let added = send(
        &app,
        post("/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = added.cart_cookie();
    let without_card = "email=ada%40example.com&name=Ada+Shopper&addressLine1=1+Main+St\
         &city=Boston&region=MA&postalCode=02139&country=US&shippingOption=standard";

    let unknown = check_out(
        &app,
        &token,
        &format!("{without_card}&giftCardCode=0000-0000-0000-0000"),
    )
    .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    let html = unknown.text();
    assert!(
        html.contains("No gift card has this code. Check it and try again."),
        "{html}"
    );
    assert!(html.contains("value=\"0000-0000-0000-0000\" autocomplete=\"off\" aria-invalid=\"true\" aria-describedby=\"checkout-giftCardCode-error\""), "{html}");

    let malformed = check_out(&app, &token, &format!("{without_card}&giftCardCode=1234")).await;
    assert_eq!(malformed.status, StatusCode::BAD_REQUEST);
    assert!(
        malformed
            .text()
            .contains("A gift card code has 16 letters and digits")
    );

    // $25 covers the tote and shipping: no card details, nothing charged, confirmed.
    let placed = check_out(&app, &token, &format!("{without_card}&giftCardCode={code}")).await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    let order = send(&app, get_with(placed.header("location"), &token))
        .await
        .text();
    assert!(order.contains("\"pageType\":202"), "{order}");
    assert!(order.contains("<dt>Rest due</dt><dd>$0.00</dd>"), "{order}");
}

#[tokio::test]
async fn a_gift_card_product_page_links_to_the_gift_card_checkout() {
    let app = shop().await;
    let page = fetch(&app, "/journal/gift").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(
        html.contains("href=\"/checkout/giftcard?websiteId=site&#38;giftCardProductId=gift\"")
            || html
                .contains("href=\"/checkout/giftcard?websiteId=site&amp;giftCardProductId=gift\""),
        "{html}"
    );
    let tote = fetch(&app, "/journal/tote").await.text();
    assert!(!tote.contains("/checkout/giftcard"), "{tote}");
}

#[tokio::test]
async fn a_shopper_who_bought_starts_a_new_cart_with_the_next_item() {
    let app = shop().await;
    let added = send(&app, post("/checkout/giftcard", GIFT_FORM, None)).await;
    let bought = added.cart_cookie();
    let placed = check_out(
        &app,
        &bought,
        "email=ada%40example.com&cardNumber=4242424242424242&cardExpiry=12%2F40&cardCvc=123",
    )
    .await;
    assert_eq!(placed.status, StatusCode::SEE_OTHER, "{}", placed.text());
    // The same browser, still carrying the bought cart's cookie, buys again.
    let again = send(&app, post("/checkout/giftcard", GIFT_FORM, Some(&bought))).await;
    assert_eq!(again.status, StatusCode::SEE_OTHER, "{}", again.text());
    let fresh = again.cart_cookie();
    assert_ne!(fresh, bought);
    let tote = send(
        &app,
        post("/cart", "itemId=tote&sku=TOTE-1&quantity=1", Some(&bought)),
    )
    .await;
    assert_eq!(tote.status, StatusCode::SEE_OTHER, "{}", tote.text());
    assert_ne!(tote.cart_cookie(), bought);
    let cart = send(&app, get_with("/cart", &fresh)).await.text();
    assert!(cart.contains("For Bea (bea@example.com)"), "{cart}");
}

#[tokio::test]
async fn an_order_page_opens_only_for_its_cart_or_a_signed_link_and_shows_codes_once() {
    let app = shop().await;
    let (confirmation, buyer) = buy_gift_card(&app).await;
    let code = text_after(&confirmation, "<code class=\"gift-card__code\">");
    let order_id = text_after(&confirmation, "Order number: <strong>");
    let confirmed = format!("/commerce/orders/{order_id}/confirmed");
    let status_path = format!("/commerce/orders/{order_id}");

    // Its address alone opens nothing, and says nothing an unknown order would not.
    let unknown = fetch(&app, "/commerce/orders/order-404").await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    for path in [&confirmed, &status_path] {
        let stranger = fetch(&app, path).await;
        assert_eq!(stranger.status, StatusCode::NOT_FOUND, "{path}");
        let page = stranger.text();
        assert!(page.contains("We couldn’t find this order."), "{page}");
        for secret in ["ada@example.com", "Bea", &code[15..]] {
            assert!(!page.contains(secret), "{path} leaks {secret}: {page}");
        }
    }
    let other_cart = send(
        &app,
        post("/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await
    .cart_cookie();
    let other = send(&app, get_with(&status_path, &other_cart)).await;
    assert_eq!(
        other.status,
        StatusCode::NOT_FOUND,
        "another shopper's cart"
    );

    // The first confirmation view showed the codes; the next one shows their last 4.
    let again = send(&app, get_with(&confirmed, &buyer)).await.text();
    assert!(!again.contains(&code), "{again}");
    assert!(
        again.contains(&format!("ending {}", &code[15..])),
        "{again}"
    );
    assert!(again.contains("shown in full only once"), "{again}");

    // The mail's signed link opens the page without the cart, until it expires.
    let now = vitrine_core::cart::Timestamp(
        i64::try_from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis(),
        )
        .unwrap(),
    );
    let signed = format!("{status_path}?link={}", LINK_KEY.sign(&order_id, now));
    let by_link = fetch(&app, &signed).await;
    assert_eq!(by_link.status, StatusCode::OK);
    assert!(by_link.text().contains("Order status"));
    assert!(!by_link.text().contains(&code));
    let other_key = OrderLinkKey::new([1; 32]).sign(&order_id, now);
    let forged = fetch(&app, &format!("{status_path}?link={other_key}")).await;
    assert_eq!(forged.status, StatusCode::NOT_FOUND);
    let long_ago = vitrine_core::cart::Timestamp(
        now.millis() - (vitrine_core::checkout::ORDER_LINK_LIFETIME_SECONDS + 60) * 1000,
    );
    let expired = fetch(
        &app,
        &format!("{status_path}?link={}", LINK_KEY.sign(&order_id, long_ago)),
    )
    .await;
    assert_eq!(expired.status, StatusCode::FORBIDDEN);
    let page = expired.text();
    assert!(
        page.contains("This link to your order has expired."),
        "{page}"
    );
    assert!(!page.contains("ada@example.com"), "{page}");
}

#[tokio::test]
async fn the_balance_page_answers_a_cards_balance_and_the_same_shape_for_any_other_code() {
    let app = shop().await;
    let form = fetch(&app, "/gift-cards/balance").await;
    assert_eq!(form.status, StatusCode::OK);
    let html = form.text();
    assert!(
        html.contains("<h1 class=\"commerce-page__title\">Gift card balance</h1>"),
        "{html}"
    );
    assert!(html.contains("action=\"/gift-cards/balance\""), "{html}");
    assert!(
        html.contains("<label class=\"field__label\" for=\"checkout-code\">Gift card code</label>")
    );

    let (confirmation, _) = buy_gift_card(&app).await;
    let code = text_after(&confirmation, "<code class=\"gift-card__code\">");
    let typed = code.to_lowercase().replace('-', "+");
    let found = send(
        &app,
        post("/gift-cards/balance", &format!("code={typed}"), None),
    )
    .await;
    assert_eq!(found.status, StatusCode::OK);
    assert_eq!(found.header("cache-control"), "no-store");
    let html = found.text();
    let last4 = &code[15..];
    assert!(
        html.contains(&format!(
            "The gift card ending {last4} has <strong>$25.00</strong> left to spend, of $25.00."
        )),
        "{html}"
    );
    assert!(
        !html.contains(&code),
        "the whole code is not written back: {html}"
    );

    let unknown = send(
        &app,
        post("/gift-cards/balance", "code=AAAA-AAAA-AAAA-AAAA", None),
    )
    .await;
    let malformed = send(&app, post("/gift-cards/balance", "code=%3Cscript%3E", None)).await;
    for answer in [&unknown, &malformed] {
        assert_eq!(answer.status, StatusCode::OK);
        assert!(
            answer
                .text()
                .contains(vitrine_core::checkout::GIFT_CARD_UNKNOWN)
        );
    }
    let main =
        |html: &str| html[html.find("<main").unwrap()..html.find("</main>").unwrap()].to_owned();
    assert_eq!(
        main(&unknown.text()),
        main(&malformed.text()),
        "one answer for every unknown code"
    );
}

#[tokio::test]
async fn the_gift_card_form_refuses_a_send_date_without_the_recipients_address() {
    let app = shop().await;
    let body =
        "websiteId=site&giftCardProductId=gift&sku=GIFT-25&recipientName=Bea&sendOn=2099-01-01";
    let refused = send(&app, post("/checkout/giftcard", body, None)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    assert!(html.contains("id=\"checkout-sendOn\""), "{html}");
    assert!(html.contains("type=\"date\""), "{html}");
    assert!(
        html.contains("value=\"2099-01-01\""),
        "the date typed stays: {html}"
    );
    assert!(
        html.contains(vitrine_core::gift_cards::SEND_DATE_NEEDS_EMAIL)
            || html.contains("Add the recipient’s email"),
        "{html}"
    );
}
