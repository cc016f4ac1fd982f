//! The cart service: what the HTTP adapter calls for every cart operation. It reads the
//! variant from the published catalogue, the stock from the commerce store, applies the
//! cart's rules and stores the result; time and the new cart's token come in as arguments.

use std::sync::Arc;

use crate::cart::{
    CartError, CartState, CartToken, CartWarning, CouponCode, Purchasable, ShoppingCart, Stock,
    StoreRules, Timestamp,
};
use crate::catalog::Sku;
use crate::enums::ItemStatus;
use crate::ports::{RepositoryError, SiteRepository};
use crate::site::ItemId;

use super::order::{IdempotencyKey, Order, PlaceOrderError};
use super::store::CommerceStore;

/// Why a cart call did nothing.
#[derive(Debug, thiserror::Error)]
pub enum CartServiceError {
    /// The item is not a published product, or it has no variant with that SKU.
    #[error("no product variant {sku} on item {item}")]
    UnknownVariant { item: String, sku: String },
    /// The request carried no cart (its cookie is gone or cookies are off).
    #[error("no cart")]
    NoCart,
    /// The store offers no coupon with that code.
    #[error("no coupon {0}")]
    UnknownCoupon(String),
    #[error(transparent)]
    Cart(#[from] CartError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// A cart after an operation, with the operation's own warnings (stock) apart from the
/// cart's standing ones (coupons, minimum subtotal), which are in `cart.warnings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartUpdate {
    pub cart: ShoppingCart,
    pub warnings: Vec<CartWarning>,
}

/// Cart operations over the catalogue and the commerce store.
pub struct CartService {
    site: Arc<dyn SiteRepository>,
    store: Arc<dyn CommerceStore>,
    rules: StoreRules,
}

impl CartService {
    pub fn new(
        site: Arc<dyn SiteRepository>,
        store: Arc<dyn CommerceStore>,
        rules: StoreRules,
    ) -> Self {
        Self { site, store, rules }
    }

    pub fn rules(&self) -> &StoreRules {
        &self.rules
    }

    pub fn store(&self) -> &Arc<dyn CommerceStore> {
        &self.store
    }

    /// The priced cart stored under `token`, if there is one.
    pub async fn cart(
        &self,
        token: &CartToken,
        now: Timestamp,
    ) -> Result<Option<ShoppingCart>, CartServiceError> {
        let cart = self.store.load_cart(token).await?;
        Ok(cart.map(|cart| cart.price(&self.rules, now)))
    }

    /// Adds `quantity` of the variant `sku` of product `item` to the cart under `token`,
    /// creating the cart when it does not exist yet.
    pub async fn add_item(
        &self,
        token: &CartToken,
        item: &ItemId,
        sku: &Sku,
        quantity: u32,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let purchasable = self.purchasable(item, sku).await?;
        let mut cart = match self.store.load_cart(token).await? {
            Some(cart) => cart,
            None => CartState::new(token.as_str(), self.website_id().await?, now),
        };
        let warnings = cart.add_item(&purchasable, quantity)?;
        self.save(token, cart, warnings, now).await
    }

    /// Sets the quantity of a line; 0 removes it.
    pub async fn change_quantity(
        &self,
        token: &CartToken,
        sku: &Sku,
        quantity: u32,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        let stock = self.store.stock(sku).await?.unwrap_or(Stock::Unlimited);
        let warnings = cart.change_quantity(sku, quantity, stock)?;
        self.save(token, cart, warnings, now).await
    }

    pub async fn remove_item(
        &self,
        token: &CartToken,
        sku: &Sku,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        cart.remove_item(sku)?;
        self.save(token, cart, Vec::new(), now).await
    }

    /// Applies the store's coupon `code`, counting its uses so far (in all, and by `email`
    /// when the shopper has given one).
    pub async fn apply_coupon(
        &self,
        token: &CartToken,
        code: &CouponCode,
        email: &str,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let coupon = self
            .rules
            .coupons
            .iter()
            .find(|coupon| &coupon.code == code)
            .cloned()
            .ok_or_else(|| CartServiceError::UnknownCoupon(code.to_string()))?;
        let mut cart = self.load(token).await?;
        let usage = self.store.coupon_usage(code, email).await?;
        cart.apply_coupon(coupon, usage, now)?;
        self.save(token, cart, Vec::new(), now).await
    }

    pub async fn remove_coupon(
        &self,
        token: &CartToken,
        code: &CouponCode,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        cart.remove_coupon(code)?;
        self.save(token, cart, Vec::new(), now).await
    }

    /// Chooses a shipping option for the cart.
    pub async fn select_shipping_option(
        &self,
        token: &CartToken,
        option_id: &str,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        cart.select_shipping_option(option_id, &self.rules.shipping_options)?;
        self.save(token, cart, Vec::new(), now).await
    }

    /// Places the order for the cart under `token`: priced now, checked for checkout, and
    /// handed to the store, which decrements stock atomically and never below zero. The
    /// same `key` submitted again answers with the first order and changes nothing.
    pub async fn place_order(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        email: &str,
        now: Timestamp,
    ) -> Result<Order, PlaceOrderError> {
        if let Some(placed) = self.store.order_by_key(&key).await? {
            return Ok(placed);
        }
        let cart = self
            .store
            .load_cart(token)
            .await?
            .ok_or(PlaceOrderError::UnknownCart)?;
        let priced = cart.price(&self.rules, now);
        let order = Order::from_cart(&priced, order_id, key, token.clone(), email, now)?;
        self.store.place_order(&order).await
    }

    async fn load(&self, token: &CartToken) -> Result<CartState, CartServiceError> {
        self.store
            .load_cart(token)
            .await?
            .ok_or(CartServiceError::NoCart)
    }

    async fn save(
        &self,
        token: &CartToken,
        cart: CartState,
        warnings: Vec<CartWarning>,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        self.store.save_cart(token, &cart).await?;
        Ok(CartUpdate {
            cart: cart.price(&self.rules, now),
            warnings,
        })
    }

    async fn website_id(&self) -> Result<String, RepositoryError> {
        let profile = self.site.profile().await?;
        Ok(profile.map_or_else(String::new, |profile| profile.website.id.to_string()))
    }

    /// The variant as the published catalogue offers it, with the store's stock. The
    /// catalogue's stock figure seeds the store the first time a SKU is seen; from then on
    /// the store's count, which orders decrement, is the truth.
    async fn purchasable(
        &self,
        item_id: &ItemId,
        sku: &Sku,
    ) -> Result<Purchasable, CartServiceError> {
        let unknown = || CartServiceError::UnknownVariant {
            item: item_id.to_string(),
            sku: sku.as_str().to_owned(),
        };
        let item = self
            .site
            .item(item_id)
            .await?
            .filter(|item| item.status == ItemStatus::Published)
            .ok_or_else(unknown)?;
        let product = item.product.as_ref().ok_or_else(unknown)?;
        let variant = product
            .variants
            .iter()
            .find(|variant| &variant.sku == sku)
            .ok_or_else(unknown)?;
        let mut purchasable =
            Purchasable::from_variant(item.id.as_str(), item.title.as_str(), product, variant, 0);
        self.store.seed_stock(sku, purchasable.stock).await?;
        if let Some(stock) = self.store.stock(sku).await? {
            purchasable.stock = stock;
        }
        Ok(purchasable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{ShippingOption, ShippingRate};
    use crate::checkout::InMemoryCommerceStore;
    use crate::ports::conformance::fixture_site;
    use crate::ports::memory::MemorySiteRepository;

    const NOW: Timestamp = Timestamp(1_700_000_000_000);

    async fn service() -> CartService {
        let site = MemorySiteRepository::new();
        site.replace_site(&fixture_site("Shop")).await.unwrap();
        let rules = StoreRules {
            shipping_options: vec![ShippingOption {
                id: "standard".into(),
                name: "Standard".into(),
                rate: ShippingRate::FlatRate { cost_cents: 500 },
            }],
            coupons: vec![
                crate::cart::Coupon::new(
                    CouponCode::parse("TEN").unwrap(),
                    crate::cart::CouponKind::Percentage { basis_points: 1000 },
                    None,
                    None,
                )
                .unwrap()
                .with_limits(Some(1), None),
            ],
            ..StoreRules::default()
        };
        CartService::new(
            Arc::new(site),
            Arc::new(InMemoryCommerceStore::new()),
            rules,
        )
    }

    fn token(name: &str) -> CartToken {
        CartToken::parse(format!("{name:0>16}")).unwrap()
    }

    fn key(name: &str) -> IdempotencyKey {
        IdempotencyKey::parse(format!("{name:0>16}")).unwrap()
    }

    #[tokio::test]
    async fn the_last_units_sell_once_and_a_double_submit_orders_once() {
        let service = service().await;
        let (tote, sku) = (
            ItemId::parse("tote").unwrap(),
            Sku::parse("TOTE-1").unwrap(),
        );
        let (alice, bob) = (token("alice"), token("bob"));
        for (buyer, quantity) in [(&alice, 3), (&bob, 1)] {
            let update = service
                .add_item(buyer, &tote, &sku, quantity, NOW)
                .await
                .unwrap();
            assert_eq!(update.cart.subtotal_cents, 2000 * i64::from(quantity));
            service
                .select_shipping_option(buyer, "standard", NOW)
                .await
                .unwrap();
        }
        let order = service
            .place_order(&alice, key("a1"), "order-a".into(), "a@example.com", NOW)
            .await
            .unwrap();
        assert_eq!(order.grand_total_cents, 6000 + 500);
        let again = service
            .place_order(&alice, key("a1"), "order-a2".into(), "a@example.com", NOW)
            .await
            .unwrap();
        assert_eq!(again, order);
        let late = service
            .place_order(&bob, key("b1"), "order-b".into(), "b@example.com", NOW)
            .await
            .unwrap_err();
        assert!(matches!(late, PlaceOrderError::OutOfStock(_)), "{late:?}");
        assert_eq!(
            service.store().stock(&sku).await.unwrap(),
            Some(Stock::Limited(0))
        );
        let sold_out = service
            .add_item(&bob, &tote, &sku, 1, NOW)
            .await
            .unwrap_err();
        assert!(
            matches!(sold_out, CartServiceError::Cart(CartError::OutOfStock(_))),
            "{sold_out:?}"
        );
        let purchased = service.cart(&alice, NOW).await.unwrap().unwrap();
        assert!(purchased.is_purchased);
        assert_eq!(purchased.order_id, "order-a");
    }

    #[tokio::test]
    async fn unknown_variants_and_missing_carts_are_refused() {
        let service = service().await;
        let error = service
            .add_item(
                &token("c"),
                &ItemId::parse("tote").unwrap(),
                &Sku::parse("NOPE").unwrap(),
                1,
                NOW,
            )
            .await
            .unwrap_err();
        assert!(matches!(error, CartServiceError::UnknownVariant { .. }));
        let error = service
            .remove_item(&token("c"), &Sku::parse("TOTE-1").unwrap(), NOW)
            .await
            .unwrap_err();
        assert!(matches!(error, CartServiceError::NoCart));
        let error = service
            .place_order(&token("c"), key("c1"), "o".into(), "c@example.com", NOW)
            .await
            .unwrap_err();
        assert!(matches!(error, PlaceOrderError::UnknownCart));
    }

    #[tokio::test]
    async fn coupons_come_from_the_store_and_count_their_uses() {
        let service = service().await;
        let (tote, sku) = (
            ItemId::parse("tote").unwrap(),
            Sku::parse("TOTE-1").unwrap(),
        );
        let (alice, bob) = (token("alice"), token("bob"));
        let ten = CouponCode::parse("ten").unwrap();
        for buyer in [&alice, &bob] {
            service.add_item(buyer, &tote, &sku, 1, NOW).await.unwrap();
            service
                .select_shipping_option(buyer, "standard", NOW)
                .await
                .unwrap();
        }
        let unknown = CouponCode::parse("NOPE").unwrap();
        let error = service
            .apply_coupon(&alice, &unknown, "", NOW)
            .await
            .unwrap_err();
        assert!(matches!(error, CartServiceError::UnknownCoupon(_)));
        let update = service.apply_coupon(&alice, &ten, "", NOW).await.unwrap();
        assert_eq!(update.cart.discount_cents, 200);
        service
            .place_order(&alice, key("a1"), "order-a".into(), "a@example.com", NOW)
            .await
            .unwrap();
        // The coupon may be used once in all, and Alice's order used it.
        let error = service.apply_coupon(&bob, &ten, "", NOW).await.unwrap_err();
        assert!(
            matches!(
                error,
                CartServiceError::Cart(CartError::CouponNotApplicable { .. })
            ),
            "{error:?}"
        );
        let update = service.add_item(&bob, &tote, &sku, 1, NOW).await.unwrap();
        assert!(update.cart.coupons.is_empty());
    }
}
