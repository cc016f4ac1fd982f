//! The shop the cart service's tests check out from: the fixture site with one flat shipping
//! rate, an in-memory commerce store, a payment gateway of the test's choosing, and the
//! checkout form a shopper fills in.

use super::*;
use crate::cart::{CartToken, ShippingOption, ShippingRate, Timestamp};
use crate::catalog::Sku;
use crate::checkout::InMemoryCommerceStore;
use crate::checkout::conformance::paid_checkout_form;
use crate::checkout::details::CheckoutForm;
use crate::checkout::order::IdempotencyKey;
use crate::ports::conformance::fixture_site;
use crate::ports::memory::MemorySiteRepository;
use crate::site::{ItemId, Site};

/// 2026-11-21T14:00:00Z
pub(super) const NOW: Timestamp = Timestamp(1_795_269_600_000);

/// The store's rules: one shipping option, "standard", at a flat 5.00.
pub(super) fn standard_shipping() -> StoreRules {
    StoreRules {
        shipping_options: vec![ShippingOption {
            id: "standard".into(),
            name: "Standard".into(),
            rate: ShippingRate::FlatRate { cost_cents: 500 },
        }],
        ..StoreRules::default()
    }
}

/// The cart service over `site` (standard shipping at 5.00), paying through `gateway`, and
/// its store.
pub(super) async fn shop_over(
    site: Site,
    gateway: Arc<dyn PaymentGateway>,
) -> (CartService, Arc<InMemoryCommerceStore>) {
    let repository = MemorySiteRepository::new();
    repository.replace_site(&site).await.unwrap();
    let store = Arc::new(InMemoryCommerceStore::new());
    let service = CartService::new(Arc::new(repository), store.clone(), standard_shipping())
        .with_payments(gateway);
    (service, store)
}

/// The cart service over the fixture site "Shop", paying through `gateway`, and its store.
pub(super) async fn shop(
    gateway: Arc<dyn PaymentGateway>,
) -> (CartService, Arc<InMemoryCommerceStore>) {
    shop_over(fixture_site("Shop"), gateway).await
}

/// Puts `quantity` totes (`TOTE-1` of the fixture site) in the cart under `buyer`.
pub(super) async fn add_totes(service: &CartService, buyer: &CartToken, quantity: u32) {
    let tote = ItemId::parse("tote").unwrap();
    let sku = Sku::parse("TOTE-1").unwrap();
    service
        .add_item(buyer, &tote, &sku, quantity, NOW)
        .await
        .unwrap();
}

/// A cart token of sixteen characters or more, named for the test's buyer.
pub(super) fn token(name: &str) -> CartToken {
    CartToken::parse(format!("{name:0>16}")).unwrap()
}

/// A checkout form's idempotency key of sixteen characters or more.
pub(super) fn key(name: &str) -> IdempotencyKey {
    IdempotencyKey::parse(format!("{name:0>16}")).unwrap()
}

/// The checkout form without a card, as the page posts it when the provider's fields take it.
pub(super) fn address_form() -> CheckoutForm {
    CheckoutForm {
        card_number: String::new(),
        card_expiry: String::new(),
        card_cvc: String::new(),
        ..card_form("")
    }
}

/// Ada's checkout form (a US address, standard shipping) paying with the card `number`.
pub(super) fn card_form(number: &str) -> CheckoutForm {
    CheckoutForm {
        name: "Ada".into(),
        card_number: number.into(),
        ..paid_checkout_form("ada@example.com")
    }
}
