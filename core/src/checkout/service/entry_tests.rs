//! Entering checkout: the items are held for the shopper and kept from others until the
//! hold ends.

use super::*;
use crate::cart::{CartToken, Timestamp};
use crate::catalog::Sku;
use crate::checkout::InMemoryCommerceStore;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::ItemId;

const NOW: Timestamp = Timestamp(1_700_000_000_000);

fn token(name: &str) -> CartToken {
    CartToken::parse(format!("{name:0>16}")).unwrap()
}

#[tokio::test]
async fn entering_checkout_holds_the_items_and_keeps_them_from_others_until_the_hold_ends() {
    let site = MemorySiteRepository::new();
    site.replace_site(&fixture_site("Shop")).await.unwrap();
    let service = CartService::new(
        Arc::new(site),
        Arc::new(InMemoryCommerceStore::new()),
        StoreRules::default(),
    )
    .with_hold_seconds(90);
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    let (alice, bob) = (token("alice"), token("bob"));
    service.add_item(&alice, &tote, &sku, 3, NOW).await.unwrap();
    service.add_item(&bob, &tote, &sku, 1, NOW).await.unwrap();

    let refused = service.enter_checkout(None, NOW).await.unwrap_err();
    assert!(matches!(
        refused,
        EnterCheckoutError::Refused(CheckoutEntryRefusal::SessionExpired)
    ));
    let held = service.enter_checkout(Some(&alice), NOW).await.unwrap();
    assert_eq!(held.reserved_until, Some(NOW.plus_seconds(90)));
    let cart = service.cart(&alice, NOW).await.unwrap().unwrap();
    assert_eq!(cart.reserved_until, Some(NOW.plus_seconds(90)));

    let EnterCheckoutError::Refused(refusal) =
        service.enter_checkout(Some(&bob), NOW).await.unwrap_err()
    else {
        panic!("Bob should be refused");
    };
    assert_eq!(
        refusal.message(),
        "Post tote is being held for other shoppers at checkout. Please try again in a few minutes."
    );
    let after = NOW.plus_seconds(90);
    assert!(service.enter_checkout(Some(&bob), after).await.is_ok());
}

#[tokio::test]
async fn a_cart_cannot_hold_more_than_a_hundred_of_an_item_and_holds_nothing_when_refused() {
    let mut shop = fixture_site("Shop");
    for item in &mut shop.items {
        for variant in item
            .product
            .iter_mut()
            .flat_map(|product| &mut product.variants)
        {
            variant.unlimited = true;
        }
    }
    let site = MemorySiteRepository::new();
    site.replace_site(&shop).await.unwrap();
    let service = CartService::new(
        Arc::new(site),
        Arc::new(InMemoryCommerceStore::new()),
        StoreRules::default(),
    );
    let (tote, sku) = (
        ItemId::parse("tote").unwrap(),
        Sku::parse("TOTE-1").unwrap(),
    );
    let hoarder = token("hoarder");
    service
        .add_item(&hoarder, &tote, &sku, 9_999, NOW)
        .await
        .unwrap();
    let EnterCheckoutError::Refused(refusal) = service
        .enter_checkout(Some(&hoarder), NOW)
        .await
        .unwrap_err()
    else {
        panic!("the hold should be refused");
    };
    assert_eq!(
        refusal.message(),
        "You can check out at most 100 of Post tote at once. Lower the quantity to continue."
    );
    let cart = service.cart(&hoarder, NOW).await.unwrap().unwrap();
    assert_eq!(cart.reserved_until, None, "nothing is held");

    service
        .change_quantity(&hoarder, &sku, 100, NOW)
        .await
        .unwrap();
    let held = service.enter_checkout(Some(&hoarder), NOW).await.unwrap();
    assert!(held.reserved_until.is_some());
}
