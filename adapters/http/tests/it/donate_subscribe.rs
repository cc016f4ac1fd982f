//! Donation checkout (203, 204) and subscription checkout (206) through the router, with
//! the in-memory stores, the test gateway and the fixture site plus a page with a donation
//! block (`kiln-fund`) and a monthly subscription product (`club`, SKU `CLUB-1`, $30.00).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::DECLINED_MESSAGE;
use vitrine_core::ports::SiteRepository;
use vitrine_core::site::{
    Block, BlockContent, Body as PageBody, CollectionId, DonationBlock, ItemId, Layout,
    PermissionType, Seo, Slug,
};

use crate::cart::{form, idempotency_key};
use crate::support::cart_cookie;
use crate::support::send;

const THANKS: &str = "The kiln thanks you.";
const FOREIGN: &str =
    "This checkout link does not belong to your cart. Open your cart to check out.";

/// The fixture site with the kiln page and the club, served as the server wires a store.
async fn shop() -> axum::Router {
    crate::cart::shop_over(kiln_and_club().await).await
}

/// The fixture site with the kiln page and the club.
pub(crate) async fn kiln_and_club() -> Arc<vitrine_core::ports::memory::MemorySiteRepository> {
    let mut site = crate::support::site();
    let mut kiln = site.collections[0].clone();
    kiln.id = CollectionId::try_from("kiln".to_owned()).unwrap();
    kiln.slug = Slug::parse("kiln").unwrap();
    kiln.title = "Kiln".into();
    kiln.body = PageBody {
        raw: false,
        layout: Layout::stacked(vec![Block {
            id: "kiln-fund".to_owned().try_into().unwrap(),
            content: BlockContent::Donation(DonationBlock {
                title: "Support the community kiln".into(),
                description: "A second kiln for the neighbourhood.".into(),
                button_label: "Donate to the kiln".into(),
                suggested_amounts: vec![1000, 2500],
                minimum_amount: 100,
                maximum_amount: 100_000,
                thank_you: THANKS.into(),
            }),
        }])
        .unwrap(),
    };
    kiln.permission_type = PermissionType::Public;
    kiln.seo = Seo::default();
    site.collections.push(kiln);
    let mut club = site
        .items
        .iter()
        .find(|item| item.id.as_str() == "tote")
        .cloned()
        .unwrap();
    club.id = ItemId::parse("club").unwrap();
    club.slug = Slug::parse("club").unwrap();
    club.title = "Clay Club".into();
    let product = club.product.as_mut().unwrap();
    product.variants[0].sku = Sku::parse("CLUB-1").unwrap();
    product.variants[0].price = 3000;
    product.variants[0].on_sale = false;
    product.variants[0].unlimited = true;
    product.subscription_plan = Some(SubscriptionPlan {
        num_billing_cycles: None,
        billing_period: BillingPeriod {
            value: 1,
            unit: BillingUnit::Month,
        },
    });
    site.items.push(club);
    let repository = Arc::new(vitrine_core::ports::memory::MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    repository
}

const DONOR: &str = "name=Ada+Donor&email=ada%40example.com&cardExpiry=12%2F40&cardCvc=123";
const DONATE_PATH: &str = "/checkout/donate?donatePageId=kiln-fund";

#[tokio::test]
async fn the_donation_block_leads_to_its_donation_page() {
    let app = shop().await;
    let page = send(&app, form("GET", "/kiln", "", None)).await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("data-block-type=\"52\""), "{html}");
    assert!(
        html.contains("action=\"/checkout/donate\"")
            && html.contains("name=\"donatePageId\" value=\"kiln-fund\""),
        "{html}"
    );
    assert!(html.contains("value=\"2500\"> $25.00"), "{html}");
    assert!(html.contains(">Donate to the kiln</button>"), "{html}");

    // The block's form arrives with the amount picked.
    let donate = send(
        &app,
        form("GET", &format!("{DONATE_PATH}&amount=2500"), "", None),
    )
    .await;
    assert_eq!(donate.status, StatusCode::OK);
    assert_eq!(donate.page_context()["pageType"], 203);
    let html = donate.text();
    assert!(html.contains("<h1 class=\"commerce-page__title\">Support the community kiln</h1>"));
    assert!(html.contains("value=\"2500\" checked> $25.00"), "{html}");
    assert!(html.contains("value=\"1000\"> $10.00"), "{html}");
    assert!(
        html.contains("Enter an amount from $1.00 to $1,000.00."),
        "{html}"
    );
    assert!(
        html.contains("4242 4242 4242 4242"),
        "the test gateway's cards are named"
    );
    assert_eq!(donate.header("cache-control"), "no-store");
}

#[tokio::test]
async fn a_double_submitted_donation_pays_once_and_is_confirmed_on_page_204() {
    let app = shop().await;
    let page = send(&app, form("GET", DONATE_PATH, "", None)).await.text();
    let body = format!(
        "amount=2500&{DONOR}&cardNumber=4242+4242+4242+4242&idempotencyKey={}",
        idempotency_key(&page)
    );
    let first = send(&app, form("POST", DONATE_PATH, &body, None)).await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.text());
    let second = send(&app, form("POST", DONATE_PATH, &body, None)).await;
    let page_of = |location: &str| location.split('?').next().unwrap_or_default().to_owned();
    assert_eq!(
        page_of(second.header("location")),
        page_of(first.header("location"))
    );
    let location = first.header("location");
    assert!(
        location.starts_with("/commerce/contributions/contribution-")
            && page_of(location).ends_with("/confirmed")
            && location.contains("/confirmed?link="),
        "{location}"
    );

    let confirmed = send(&app, form("GET", location, "", None)).await;
    assert_eq!(confirmed.status, StatusCode::OK);
    assert_eq!(confirmed.page_context()["pageType"], 204);
    let html = confirmed.text();
    assert!(html.contains("Thank you for your contribution"), "{html}");
    assert!(
        html.contains(
            "Thank you, Ada Donor. Your contribution of $25.00 to Support the community kiln was received."
        ),
        "{html}"
    );
    assert!(html.contains(THANKS), "{html}");

    // An own amount within the limits is taken as typed.
    let page = send(&app, form("GET", DONATE_PATH, "", None)).await.text();
    let own = format!(
        "amount=other&otherAmount=12.50&{DONOR}&cardNumber=4242424242424242&idempotencyKey={}",
        idempotency_key(&page)
    );
    let given = send(&app, form("POST", DONATE_PATH, &own, None)).await;
    let html = send(&app, form("GET", given.header("location"), "", None))
        .await
        .text();
    assert!(html.contains("Your contribution of $12.50"), "{html}");
}

#[tokio::test]
async fn a_wrong_donation_form_names_its_fields_and_a_declined_card_says_so() {
    let app = shop().await;
    let page = send(&app, form("GET", DONATE_PATH, "", None)).await.text();
    let key = idempotency_key(&page);
    let wrong = format!(
        "amount=other&otherAmount=0.50&name=&email=ada&cardNumber=4242+4242+4242+4241&cardExpiry=12%2F40&cardCvc=123&idempotencyKey={key}"
    );
    let refused = send(&app, form("POST", DONATE_PATH, &wrong, None)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let html = refused.text();
    for message in [
        "Enter an amount from $1.00 to $1,000.00.",
        "Name is required.",
        "Card number is not valid.",
        "Update the missing or invalid information above",
    ] {
        assert!(html.contains(message), "{message}: {html}");
    }
    // What was typed stays, except the card's number.
    assert!(html.contains("value=\"0.50\""), "{html}");
    assert!(html.contains("value=\"ada\""), "{html}");
    assert!(!html.contains("4241"), "{html}");

    let declined = format!(
        "amount=1000&{DONOR}&cardNumber=4000+0000+0000+0002&idempotencyKey={}",
        idempotency_key(&html)
    );
    let answer = send(&app, form("POST", DONATE_PATH, &declined, None)).await;
    assert_eq!(answer.status, StatusCode::PAYMENT_REQUIRED);
    assert!(answer.text().contains(DECLINED_MESSAGE));
}

#[tokio::test]
async fn an_unknown_donation_page_is_a_clear_404() {
    let app = shop().await;
    for path in [
        "/checkout/donate?donatePageId=nope",
        "/checkout/donate",
        // A block that is not a donation block is no donation page either.
        "/checkout/donate?donatePageId=faq-accordion",
    ] {
        let answer = send(&app, form("GET", path, "", None)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert!(answer.text().contains("Donation page not found"), "{path}");
        assert_eq!(answer.page_context()["pageType"], 203);
    }
    let post = send(
        &app,
        form(
            "POST",
            "/checkout/donate?donatePageId=nope",
            &format!(
                "amount=1000&{DONOR}&cardNumber=4242424242424242&idempotencyKey=abcdefgh12345678"
            ),
            None,
        ),
    )
    .await;
    assert_eq!(post.status, StatusCode::NOT_FOUND);
    let gone = send(
        &app,
        form(
            "GET",
            "/commerce/contributions/contribution-nope/confirmed",
            "",
            None,
        ),
    )
    .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert!(gone.text().contains("Contribution not found"));
}

/// A new cart holding a club; its token.
pub(crate) async fn club_cart(app: &axum::Router) -> String {
    let added = send(
        app,
        form("POST", "/cart", "itemId=club&sku=CLUB-1&quantity=1", None),
    )
    .await;
    assert_eq!(added.status, StatusCode::SEE_OTHER, "{}", added.text());
    cart_cookie(&added)
}

pub(crate) const SUBSCRIBER: &str = "email=club%40example.com&name=Ada+Member&addressLine1=1+Main+St\
     &city=Boston&region=MA&postalCode=02139&country=US&shippingOption=standard\
     &cardExpiry=12%2F40&cardCvc=123&cardNumber=4242+4242+4242+4242";

#[tokio::test]
async fn a_subscription_shares_its_cart_with_nothing_else() {
    let app = shop().await;
    let token = club_cart(&app).await;
    let api = Request::builder()
        .method("POST")
        .uri("/api/commerce/cart/items?crumb=c")
        .header("cookie", format!("crumb=c; vitrine_cart={token}"))
        .header("content-type", "application/json")
        .body(Body::from(
            r#"{"itemId":"tote","sku":"TOTE-1","quantity":1}"#,
        ))
        .unwrap();
    let refused = send(&app, api).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(refused.json()["reason"], "SUBSCRIPTION_ALONE");
    assert_eq!(
        refused.json()["error"],
        "A subscription is bought on its own. Check out or remove the other items in your cart first."
    );
    let without_js = send(
        &app,
        form(
            "POST",
            "/cart",
            "itemId=tote&sku=TOTE-1&quantity=1",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(without_js.status, StatusCode::CONFLICT);
    assert!(
        without_js
            .text()
            .contains("A subscription is bought on its own.")
    );
}

#[tokio::test]
async fn a_subscription_checks_out_through_its_route_once_and_is_confirmed_on_page_206() {
    let app = shop().await;
    let token = club_cart(&app).await;
    let subscribe = format!("/checkout/subscribe?cartToken={token}");
    let entry = send(
        &app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    assert_eq!(entry.status, StatusCode::SEE_OTHER);
    assert_eq!(entry.header("location"), subscribe);
    // The cart's own checkout sends a subscription on too.
    let checkout = send(&app, form("GET", "/checkout", "", Some(&token))).await;
    assert_eq!(
        checkout.status,
        StatusCode::SEE_OTHER,
        "{}",
        checkout.text()
    );
    assert_eq!(checkout.header("location"), subscribe);

    let page = send(&app, form("GET", &subscribe, "", Some(&token))).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    assert_eq!(page.page_context()["pageType"], 201);
    let html = page.text();
    assert!(
        html.contains("Subscription: Every month, until cancelled"),
        "{html}"
    );
    assert!(html.contains(&format!("action=\"{subscribe}\"")), "{html}");
    assert!(html.contains(">Subscribe</button>"), "{html}");

    let body = format!("{SUBSCRIBER}&idempotencyKey={}", idempotency_key(&html));
    let first = send(&app, form("POST", &subscribe, &body, Some(&token))).await;
    assert_eq!(first.status, StatusCode::SEE_OTHER, "{}", first.text());
    let second = send(&app, form("POST", &subscribe, &body, Some(&token))).await;
    assert_eq!(second.header("location"), first.header("location"));
    let location = first.header("location");
    assert!(
        location.starts_with("/commerce/subscriptions/order-")
            && location.ends_with("-subscription/confirmed"),
        "{location}"
    );

    let confirmed = send(&app, form("GET", location, "", Some(&token))).await;
    assert_eq!(confirmed.status, StatusCode::OK);
    assert_eq!(confirmed.page_context()["pageType"], 206);
    let html = confirmed.text();
    assert!(html.contains("Subscription confirmed"), "{html}");
    assert!(html.contains("Every month, until cancelled"), "{html}");
    assert!(html.contains("$30.00 before shipping and tax"), "{html}");
    assert!(html.contains("Until cancelled"), "{html}");
    // The next payment falls due a calendar month after the start.
    let dates: Vec<&str> = html
        .match_indices("<time datetime=\"")
        .map(|(at, marker)| &html[at + marker.len()..at + marker.len() + 10])
        .collect();
    let [started, next] = dates[..] else {
        panic!("a start and a next payment date: {html}");
    };
    assert_eq!(next, one_month_after(started), "{html}");
}

/// `YYYY-MM-DD` one billing month after `date`, by the core's rule.
fn one_month_after(date: &str) -> String {
    let number = |range: std::ops::Range<usize>| date[range].parse::<u16>().unwrap();
    let month = time::Month::try_from(number(5..7) as u8).unwrap();
    let day = time::Date::from_calendar_date(i32::from(number(0..4)), month, number(8..10) as u8)
        .unwrap();
    let noon = day.with_hms(12, 0, 0).unwrap().assume_utc();
    let anchor = Timestamp(i64::try_from(noon.unix_timestamp_nanos() / 1_000_000).unwrap());
    let monthly = BillingPeriod {
        value: 1,
        unit: BillingUnit::Month,
    };
    let next = monthly.billing_date(anchor, 1).unwrap();
    let next = time::OffsetDateTime::from_unix_timestamp(next.millis() / 1000)
        .unwrap()
        .date();
    format!(
        "{:04}-{:02}-{:02}",
        next.year(),
        u8::from(next.month()),
        next.day()
    )
}

#[tokio::test]
async fn another_visitors_cart_token_buys_nothing() {
    let app = shop().await;
    let owner = club_cart(&app).await;
    let stranger = club_cart(&app).await;
    let owners_link = format!("/checkout/subscribe?cartToken={owner}");

    let page = send(&app, form("GET", &owners_link, "", Some(&stranger))).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert!(page.text().contains(FOREIGN));
    let key = "abcdefgh12345678abcdefgh12345678";
    let body = format!("{SUBSCRIBER}&idempotencyKey={key}");
    let post = send(&app, form("POST", &owners_link, &body, Some(&stranger))).await;
    assert_eq!(post.status, StatusCode::FORBIDDEN);
    // Nobody bought the owner's cart: it still checks out.
    let own = send(&app, form("GET", &owners_link, "", Some(&owner))).await;
    assert_eq!(own.status, StatusCode::OK);

    let unknown = format!("/checkout/subscribe?cartToken={}", "0".repeat(32));
    let answer = send(&app, form("GET", &unknown, "", Some(&stranger))).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert!(answer.text().contains(FOREIGN));
    for malformed in ["/checkout/subscribe", "/checkout/subscribe?cartToken=short"] {
        let answer = send(&app, form("GET", malformed, "", Some(&owner))).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{malformed}");
    }
    let without_cookie = send(&app, form("GET", &owners_link, "", None)).await;
    assert!(
        without_cookie
            .text()
            .contains("Either your session has expired")
    );
}

#[tokio::test]
async fn a_cart_without_a_subscription_goes_to_the_cart_checkout() {
    let app = shop().await;
    let added = send(
        &app,
        form("POST", "/cart", "itemId=tote&sku=TOTE-1&quantity=1", None),
    )
    .await;
    let token = cart_cookie(&added);
    let answer = send(
        &app,
        form(
            "GET",
            &format!("/checkout/subscribe?cartToken={token}"),
            "",
            Some(&token),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(answer.header("location"), "/checkout");
    let gone = send(
        &app,
        form(
            "GET",
            "/commerce/subscriptions/order-nope-subscription/confirmed",
            "",
            None,
        ),
    )
    .await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert!(gone.text().contains("Subscription not found"));
    assert_eq!(gone.page_context()["pageType"], 206);
}

/// Page 204 showed the donor's name and amount to anyone who had its address; it opens only
/// through the signed link the donation's answer leads to.
#[tokio::test]
async fn a_contribution_page_opens_only_through_its_signed_link() {
    let app = shop().await;
    let page = send(&app, form("GET", DONATE_PATH, "", None)).await.text();
    let body = format!(
        "amount=2500&{DONOR}&cardNumber=4242+4242+4242+4242&idempotencyKey={}",
        idempotency_key(&page)
    );
    let donated = send(&app, form("POST", DONATE_PATH, &body, None)).await;
    let location = donated.header("location").to_owned();
    let (bare, link) = location.split_once('?').expect("a signed link");
    assert_eq!(
        send(&app, form("GET", &location, "", None)).await.status,
        StatusCode::OK
    );
    let mut tampered = link.to_owned();
    let last = tampered.pop().unwrap();
    tampered.push(if last == '0' { '1' } else { '0' });
    for refused in [
        bare.to_owned(),
        format!("{bare}?{tampered}"),
        format!("{bare}?link="),
    ] {
        let answer = send(&app, form("GET", &refused, "", None)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{refused}");
        let html = answer.text();
        assert!(html.contains("Contribution not found"), "{html}");
        assert!(!html.contains("Ada Donor"), "{html}");
    }
    // A link to one contribution opens no other.
    let other = format!("/commerce/contributions/contribution-0000/confirmed?{link}");
    assert_eq!(
        send(&app, form("GET", &other, "", None)).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Page 206 opened for anyone with its address; it opens as its order's page does.
#[tokio::test]
async fn a_subscription_page_opens_only_for_the_cart_that_bought_it() {
    let app = shop().await;
    let token = club_cart(&app).await;
    let subscribe = format!("/checkout/subscribe?cartToken={token}");
    send(
        &app,
        form("POST", "/commerce/goto-checkout", "", Some(&token)),
    )
    .await;
    let html = send(&app, form("GET", &subscribe, "", Some(&token)))
        .await
        .text();
    let body = format!("{SUBSCRIBER}&idempotencyKey={}", idempotency_key(&html));
    let placed = send(&app, form("POST", &subscribe, &body, Some(&token))).await;
    let location = placed.header("location").to_owned();
    assert!(location.ends_with("-subscription/confirmed"), "{location}");
    assert_eq!(
        send(&app, form("GET", &location, "", Some(&token)))
            .await
            .status,
        StatusCode::OK
    );
    let stranger = club_cart(&app).await;
    for cart in [None, Some(stranger.as_str())] {
        let answer = send(&app, form("GET", &location, "", cart)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{cart:?}");
        let html = answer.text();
        assert!(html.contains("Subscription not found"), "{html}");
        assert!(!html.contains("Every month"), "{html}");
    }
}
