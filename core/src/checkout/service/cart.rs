//! The cart's own calls on the cart service: reading the priced cart and the shopper's edits
//! (adding, quantities, removals, coupons, shipping option and location), each loading the
//! cart, changing it by the cart's rules and saving it; and the catalogue and store readings
//! the other calls share.

use crate::cart::{
    CartState, CartToken, CartWarning, CouponCode, LineId, Purchasable, ShippingLocation,
    ShoppingCart, Stock, Timestamp,
};
use crate::catalog::{ProductForm, Sku, SubmittedAnswers};
use crate::enums::ItemStatus;
use crate::ports::RepositoryError;
use crate::site::ItemId;

use super::{CartService, CartServiceError, CartUpdate};

impl CartService {
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
    /// creating the cart when it does not exist yet. A product with a form needs its
    /// answers: see [`add_item_with_answers`](Self::add_item_with_answers).
    pub async fn add_item(
        &self,
        token: &CartToken,
        item: &ItemId,
        sku: &Sku,
        quantity: u32,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        self.add_item_with_answers(token, item, sku, quantity, &SubmittedAnswers::new(), now)
            .await
    }

    /// Sets the quantity of a line (named by its id, or by the SKU of the variant's only
    /// line); 0 removes it.
    pub async fn change_quantity(
        &self,
        token: &CartToken,
        line: impl Into<LineId>,
        quantity: u32,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let line = line.into();
        let mut cart = self.load(token).await?;
        let sku = cart.line(&line)?.sku.clone();
        let stock = self.store.stock(&sku).await?.unwrap_or(Stock::Unlimited);
        let warnings = cart.change_quantity(line, quantity, stock)?;
        self.save(token, cart, warnings, now).await
    }

    pub async fn remove_item(
        &self,
        token: &CartToken,
        line: impl Into<LineId>,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let line = line.into();
        let mut cart = self.load(token).await?;
        cart.remove_item(line)?;
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

    /// Sets where the cart ships to, which decides the tax rules that apply.
    pub async fn set_shipping_location(
        &self,
        token: &CartToken,
        location: ShippingLocation,
        now: Timestamp,
    ) -> Result<CartUpdate, CartServiceError> {
        let mut cart = self.load(token).await?;
        cart.set_shipping_location(location)?;
        self.save(token, cart, Vec::new(), now).await
    }

    pub(super) async fn load(&self, token: &CartToken) -> Result<CartState, CartServiceError> {
        self.store
            .load_cart(token)
            .await?
            .ok_or(CartServiceError::NoCart)
    }

    pub(super) async fn save(
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

    pub(super) async fn website_id(&self) -> Result<String, RepositoryError> {
        let profile = self.site.profile().await?;
        Ok(profile.map_or_else(String::new, |profile| profile.website.id.to_string()))
    }

    /// The variant as the published catalogue offers it, with the store's stock, and the
    /// form its product asks the shopper to fill. The catalogue's stock figure seeds the
    /// store the first time a SKU is seen; from then on the store's count, which orders
    /// decrement, is the truth.
    pub(super) async fn purchasable(
        &self,
        item_id: &ItemId,
        sku: &Sku,
    ) -> Result<(Purchasable, Option<ProductForm>), CartServiceError> {
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
        Ok((purchasable, product.form.clone()))
    }
}
