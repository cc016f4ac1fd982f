//! The cart service: what the HTTP adapter calls for every cart operation. It reads the
//! variant from the published catalogue, the stock from the commerce store, applies the
//! cart's rules and stores the result; time and the new cart's token come in as arguments.

use std::sync::Arc;

use crate::cart::{
    CartError, CartState, CartToken, CartWarning, CouponCode, HoldError, LineId, Purchasable,
    ShippingLocation, ShoppingCart, Stock, StoreRules, Timestamp,
};
use crate::catalog::{ProductForm, Sku, SubmittedAnswers};
use crate::enums::ItemStatus;
use crate::ports::{RepositoryError, SiteRepository};
use crate::site::ItemId;

use super::details::{CheckoutFieldErrors, CheckoutForm, CheckoutNeeds};
use super::entry::{CheckoutEntryRefusal, enter_checkout};
use super::follow_up::{OrderFollowUp, OrderMails};
use super::ledger::give_back;
use super::order::{CouponLimit, IdempotencyKey, Order, PlaceOrderError};
use super::payment::{PaymentError, PaymentGateway, PaymentRequest, TestPaymentGateway};
use super::store::CommerceStore;
use super::store::HoldStockError;
use crate::gift_cards::GiftCardCodeSource;

#[cfg(test)]
mod cart_tests;
#[cfg(test)]
mod checkout_tests;
#[cfg(test)]
mod entry_tests;
#[cfg(test)]
mod failure_tests;
#[cfg(test)]
mod gift_card_tests;
mod gift_cards;

pub use gift_cards::{
    AddGiftCardError, GIFT_CARD_AMOUNT_REQUIRED, GiftCardAmount, GiftCardForm, GiftCardOffer,
    GiftCardOfferError, OTHER_RECIPIENT,
};

mod product_forms;

pub use product_forms::{InvalidAnswers, LineForm};

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
    /// The answers to the product's form were refused; a message per field.
    #[error("the product's form has errors: {:?}", .0.errors)]
    InvalidAnswers(Box<InvalidAnswers>),
    /// The line's product asks for nothing (any more), so there is no form to open or save.
    #[error("line {0} has no form")]
    NoProductForm(LineId),
    #[error(transparent)]
    Cart(#[from] CartError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Why a shopper stays on the cart page.
#[derive(Debug, thiserror::Error)]
pub enum EnterCheckoutError {
    #[error("checkout entry refused: {0:?}")]
    Refused(CheckoutEntryRefusal),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Why checking out placed no order.
#[derive(Debug, thiserror::Error)]
pub enum CheckoutError {
    /// Fields of the checkout form are missing or wrong; a message per field.
    #[error("the checkout form has errors: {0:?}")]
    Invalid(CheckoutFieldErrors),
    /// The gateway declined the card or could not be reached; nothing was charged.
    #[error(transparent)]
    Payment(#[from] PaymentError),
    #[error(transparent)]
    Cart(#[from] CartError),
    #[error(transparent)]
    Order(#[from] PlaceOrderError),
}

impl From<RepositoryError> for CheckoutError {
    fn from(error: RepositoryError) -> Self {
        Self::Order(PlaceOrderError::Repository(error))
    }
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
    payments: Arc<dyn PaymentGateway>,
    hold_seconds: i64,
    order_mails: OrderMails,
    /// Where gift card codes come from; without one, orders of gift cards cannot be placed.
    gift_card_codes: Option<Arc<dyn GiftCardCodeSource>>,
}

/// How long a cart's items are held at checkout unless configured otherwise: ten minutes.
pub const DEFAULT_HOLD_SECONDS: i64 = 10 * 60;

impl CartService {
    pub fn new(
        site: Arc<dyn SiteRepository>,
        store: Arc<dyn CommerceStore>,
        rules: StoreRules,
    ) -> Self {
        Self {
            site,
            store,
            rules,
            payments: Arc::new(TestPaymentGateway::new()),
            hold_seconds: DEFAULT_HOLD_SECONDS,
            order_mails: OrderMails::default(),
            gift_card_codes: None,
        }
    }

    /// The same service sending `mails` about every order it places (none by default).
    pub fn with_order_mails(mut self, mails: OrderMails) -> Self {
        self.order_mails = mails;
        self
    }

    pub fn order_mails(&self) -> OrderMails {
        self.order_mails
    }

    /// The same service issuing gift cards with codes from `codes` (in production, the
    /// operating system's random generator).
    pub fn with_gift_card_codes(mut self, codes: Arc<dyn GiftCardCodeSource>) -> Self {
        self.gift_card_codes = Some(codes);
        self
    }

    /// The same service holding a cart's items for `seconds` at checkout (at least 1).
    pub fn with_hold_seconds(mut self, seconds: i64) -> Self {
        self.hold_seconds = seconds.max(1);
        self
    }

    pub fn hold_seconds(&self) -> i64 {
        self.hold_seconds
    }

    /// Enters checkout with the cart under `token` (`/commerce/goto-checkout`): a cart that
    /// may check out has its items held for the configured time, so no other shopper can
    /// take them while this one pays; the countdown runs from the cart's `reservedUntil`.
    pub async fn enter_checkout(
        &self,
        token: Option<&CartToken>,
        now: Timestamp,
    ) -> Result<ShoppingCart, EnterCheckoutError> {
        let cart = match token {
            Some(token) => self.store.load_cart(token).await?,
            None => None,
        };
        let priced = cart.as_ref().map(|cart| cart.price(&self.rules, now));
        enter_checkout(priced.as_ref()).map_err(EnterCheckoutError::Refused)?;
        let (Some(token), Some(mut cart)) = (token, cart) else {
            return Err(EnterCheckoutError::Refused(
                CheckoutEntryRefusal::SessionExpired,
            ));
        };
        if cart.is_purchased {
            return Ok(cart.price(&self.rules, now));
        }
        let lines = cart.units_by_sku();
        let until = match self
            .store
            .hold_stock(token, &lines, now, self.hold_seconds)
            .await
        {
            Ok(until) => until,
            Err(HoldStockError::Repository(error)) => return Err(error.into()),
            Err(HoldStockError::Short(HoldError::Insufficient { sku, available })) => {
                let product_name = cart
                    .entries
                    .iter()
                    .find(|entry| entry.sku == sku)
                    .map_or_else(
                        || sku.as_str().to_owned(),
                        |entry| entry.product_name.clone(),
                    );
                return Err(EnterCheckoutError::Refused(CheckoutEntryRefusal::Held {
                    product_name,
                    available,
                }));
            }
        };
        cart.reserved_until = Some(until);
        self.store.save_cart(token, &cart).await?;
        Ok(cart.price(&self.rules, now))
    }

    /// The same service taking payments through `payments` (the test gateway by default).
    pub fn with_payments(mut self, payments: Arc<dyn PaymentGateway>) -> Self {
        self.payments = payments;
        self
    }

    pub fn payments(&self) -> &Arc<dyn PaymentGateway> {
        &self.payments
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
        let mut order = Order::from_cart(&priced, order_id, key, token.clone(), email, now)?;
        order.gift_cards = self.issue_gift_cards(&priced, &order.id, now)?;
        self.store
            .place_order_with_follow_up(
                &order,
                &self.coupon_limits(&order),
                &OrderFollowUp::new(&order, &priced, self.order_mails),
            )
            .await
    }

    /// Checks out the cart under `token` with the checkout form: the address and shipping
    /// option are applied to the cart, a gift card given in the form pays what it can, the
    /// rest is charged with `key` as the payment's idempotency key, and the order is placed
    /// (taking the gift card's part from its balance and issuing the cards it buys). The same
    /// `key` again (a double click) answers the first order, charges nothing more and changes
    /// nothing. When the order cannot be placed after the charge (stock ran out, or another
    /// order spent the gift card meanwhile), the charge is refunded and no card is spent.
    pub async fn checkout(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        if let Some(placed) = self.store.order_by_key(&key).await? {
            return Ok(placed);
        }
        match self
            .checkout_once(token, key.clone(), order_id, form, now)
            .await
        {
            Ok(order) => Ok(order),
            // A second submit of the same form can lose the race to the first one at any
            // step (the cart is purchased under it); the first one's order is its answer.
            Err(error) => match self.store.order_by_key(&key).await? {
                Some(placed) => Ok(placed),
                None => Err(error),
            },
        }
    }

    async fn checkout_once(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        let mut cart = self
            .store
            .load_cart(token)
            .await?
            .ok_or(PlaceOrderError::UnknownCart)?;
        if cart.is_purchased {
            return Err(PlaceOrderError::AlreadyPurchased.into());
        }
        let requires_shipping = cart.price(&self.rules, now).requires_shipping;
        let before_payment = CheckoutNeeds {
            shipping: requires_shipping,
            payment: false,
        };
        let details = form
            .check(before_payment, now)
            .map_err(CheckoutError::Invalid)?;
        if let Some(address) = &details.address {
            cart.set_shipping_location(address.location())?;
        }
        if let Some(option) = &details.shipping_option {
            cart.select_shipping_option(option, &self.rules.shipping_options)?;
        }
        self.store.save_cart(token, &cart).await?;
        let priced = cart.price(&self.rules, now);
        let mut order = Order::from_cart(
            &priced,
            order_id,
            key.clone(),
            token.clone(),
            &details.email,
            now,
        )?;
        order.shipping_address = details.address.clone();
        order.gift_cards = self.issue_gift_cards(&priced, &order.id, now)?;
        order.gift_card_payment = self
            .gift_card_payment(details.gift_card_code.as_ref(), &priced)
            .await?;
        let follow_up = OrderFollowUp::new(&order, &priced, self.order_mails);
        let rest_due = order.rest_due_cents();
        if rest_due > 0 {
            let with_payment = CheckoutNeeds {
                shipping: requires_shipping,
                payment: true,
            };
            let card = form
                .check(with_payment, now)
                .map_err(CheckoutError::Invalid)?
                .card
                .ok_or_else(|| CheckoutError::Invalid(CheckoutFieldErrors::new()))?;
            // No money moves for stock that other shoppers hold: the cart's own hold is
            // renewed first, so the order cannot run short after the charge.
            self.hold_for_payment(token, &cart, now).await?;
            let refunded = self.store.refunded_attempts(&key).await?;
            let payment = self
                .payments
                .charge(&PaymentRequest {
                    key: key.attempt(refunded),
                    amount_minor: rest_due,
                    currency: order.currency,
                    card,
                    email: order.email.clone(),
                    description: charge_description(&order),
                })
                .await?;
            order.payment_id = payment.id.clone();
            return match self
                .store
                .place_order_with_follow_up(&order, &self.coupon_limits(&order), &follow_up)
                .await
            {
                Ok(placed) => Ok(placed),
                Err(error) => {
                    // The order was not placed, so the shopper must not pay for it.
                    give_back(&*self.store, &*self.payments, &payment, &key, now).await;
                    Err(error.into())
                }
            };
        }
        Ok(self
            .store
            .place_order_with_follow_up(&order, &self.coupon_limits(&order), &follow_up)
            .await?)
    }

    /// Holds the cart's limited stock for a payment about to be made; stock that other carts
    /// hold is out of stock for this one.
    async fn hold_for_payment(
        &self,
        token: &CartToken,
        cart: &CartState,
        now: Timestamp,
    ) -> Result<(), CheckoutError> {
        match self
            .store
            .hold_stock(token, &cart.units_by_sku(), now, self.hold_seconds)
            .await
        {
            Ok(_) => Ok(()),
            Err(HoldStockError::Repository(error)) => Err(error.into()),
            Err(HoldStockError::Short(HoldError::Insufficient { sku, .. })) => {
                Err(PlaceOrderError::OutOfStock(sku).into())
            }
        }
    }

    /// The usage limits of the order's coupons, for the store to count again.
    fn coupon_limits(&self, order: &Order) -> Vec<CouponLimit> {
        self.rules
            .coupons
            .iter()
            .filter(|coupon| order.coupon_codes.contains(&coupon.code))
            .filter(|coupon| {
                coupon.total_usage_limit.is_some() || coupon.per_customer_limit.is_some()
            })
            .map(|coupon| CouponLimit {
                code: coupon.code.clone(),
                total: coupon.total_usage_limit,
                per_customer: coupon.per_customer_limit,
            })
            .collect()
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

    /// The variant as the published catalogue offers it, with the store's stock, and the
    /// form its product asks the shopper to fill. The catalogue's stock figure seeds the
    /// store the first time a SKU is seen; from then on the store's count, which orders
    /// decrement, is the truth.
    async fn purchasable(
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

/// What a charge is for, as the gateway shows it (on a receipt, in its dashboard): the
/// order's lines, at most 500 characters. Not the order id: each submit of a checkout
/// proposes its own, and a double submit must ask the gateway for the very same charge
/// under its key.
fn charge_description(order: &Order) -> String {
    let lines: Vec<String> = order
        .lines
        .iter()
        .map(|line| format!("{} × {}", line.quantity, line.product_name))
        .collect();
    let text = lines.join(", ");
    if text.chars().count() <= 500 {
        return text;
    }
    let mut clipped: String = text.chars().take(499).collect();
    clipped.push('…');
    clipped
}
