//! Checkout and orders on the cart service: entering checkout (holding the cart's items),
//! placing an order, and the checkout form's path that charges the rest a gift card leaves
//! and refunds the charge when the order cannot be placed after it.

use crate::cart::{CartState, CartToken, HoldError, ShoppingCart, Timestamp};

use super::{CartService, CheckoutError, EnterCheckoutError};
use crate::checkout::details::{CheckoutFieldErrors, CheckoutForm, CheckoutNeeds};
use crate::checkout::entry::{CheckoutEntryRefusal, check_hold_caps, enter_checkout};
use crate::checkout::follow_up::OrderFollowUp;
use crate::checkout::ledger::{give_back, refund_claimed};
use crate::checkout::order::{CouponLimit, IdempotencyKey, Order, PlaceOrderError};
use crate::checkout::payment::{CardDetails, Payment, PaymentError, PaymentRequest};
use crate::checkout::payment_events::{
    PaymentEvent, PaymentOutcome, PaymentStatus, Reconciliation,
};
use crate::checkout::store::HoldStockError;
use crate::ports::RepositoryError;

impl CartService {
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
        check_hold_caps(&cart.entries).map_err(EnterCheckoutError::Refused)?;
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
        let follow_up = self.follow_up(&order, &priced).await?;
        self.store
            .place_order_with_follow_up(&order, &self.coupon_limits(&order), &follow_up)
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
            if placed.payment_status == PaymentStatus::Pending {
                return self.retry_pending(placed, form, now).await;
            }
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

    /// The order the checkout form makes of the cart under `token`, before any payment: the
    /// form checked without the card, its address and shipping option applied to the cart
    /// (saved), the gift cards it buys issued and the gift card it pays with applied.
    pub(super) async fn prepare_order(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<PreparedOrder, CheckoutError> {
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
        let mut order =
            Order::from_cart(&priced, order_id, key, token.clone(), &details.email, now)?;
        order.shipping_address = details.address.clone();
        order.gift_cards = self.issue_gift_cards(&priced, &order.id, now)?;
        order.gift_card_payment = self
            .gift_card_payment(details.gift_card_code.as_ref(), &priced)
            .await?;
        let follow_up = self.follow_up(&order, &priced).await?;
        Ok(PreparedOrder {
            cart,
            order,
            follow_up,
            requires_shipping,
        })
    }

    /// The first step of every way of paying: the order the checkout form makes of the cart
    /// under `token`, placed at once when gift cards (or a free cart) leave nothing to pay.
    /// Otherwise `before_paying` checks what the payment needs (its answer comes back in
    /// [`ToPay::Due`]), the cart's stock is held for the payment, so no money moves for stock
    /// that other shoppers hold, and the order gets the payment's key: `key` for its first
    /// attempt, a new one after each refunded attempt.
    pub(super) async fn prepare_to_pay<T>(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
        before_paying: impl FnOnce(&PreparedOrder) -> Result<T, CheckoutError>,
    ) -> Result<ToPay<T>, CheckoutError> {
        let prepared = self
            .prepare_order(token, key.clone(), order_id, form, now)
            .await?;
        if prepared.order.rest_due_cents() <= 0 {
            let placed = self
                .store
                .place_order_with_follow_up(
                    &prepared.order,
                    &self.coupon_limits(&prepared.order),
                    &prepared.follow_up,
                )
                .await?;
            return Ok(ToPay::Placed(placed));
        }
        let checked = before_paying(&prepared)?;
        let PreparedOrder {
            cart,
            mut order,
            follow_up,
            ..
        } = prepared;
        self.hold_for_payment(token, &cart, now).await?;
        let refunded = self.store.refunded_attempts(&key).await?;
        let attempt = key.attempt(refunded);
        order.payment_key = attempt.as_str().to_owned();
        Ok(ToPay::Due {
            order,
            follow_up,
            attempt,
            checked,
        })
    }

    async fn checkout_once(
        &self,
        token: &CartToken,
        key: IdempotencyKey,
        order_id: String,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        let check_card = |prepared: &PreparedOrder| {
            let with_payment = CheckoutNeeds {
                shipping: prepared.requires_shipping,
                payment: true,
            };
            form.check(with_payment, now)
                .map_err(CheckoutError::Invalid)?
                .card
                .ok_or_else(|| CheckoutError::Invalid(CheckoutFieldErrors::new()))
        };
        let (mut order, mut follow_up, attempt, card) = match self
            .prepare_to_pay(token, key.clone(), order_id, form, now, check_card)
            .await?
        {
            ToPay::Placed(order) => return Ok(order),
            ToPay::Due {
                order,
                follow_up,
                attempt,
                checked,
            } => (order, follow_up, attempt, checked),
        };
        let charged = self
            .payments
            .charge(&charge_request(&order, attempt, card.clone()))
            .await;
        let payment = match charged {
            Ok(payment) => payment,
            Err(PaymentError::OutcomeUnknown(cause)) => {
                // The charge may have been made: the order is placed, holding its stock,
                // and waits for the gateway's word, never a guess either way.
                tracing::warn!(
                    payment_key = order.payment_key,
                    %cause,
                    "the payment's outcome is not known; the order waits as payment pending"
                );
                order.payment_status = PaymentStatus::Pending;
                // Its gift cards are emptied if the charge turns out declined: their codes
                // go to the recipients once it is known to be paid.
                follow_up.gift_card_mails_wait_for_payment = true;
                let coupon_limits = self.coupon_limits(&order);
                let placed = self
                    .store
                    .place_order_with_follow_up(&order, &coupon_limits, &follow_up)
                    .await;
                if let Err(error) = &placed {
                    // No charge id to refund: the owner finds it by its key.
                    tracing::error!(
                        payment_key = order.payment_key,
                        %error,
                        "an order whose payment's outcome is not known could not be placed; if the gateway charged it, the owner must refund it by hand"
                    );
                }
                return Ok(placed?);
            }
            Err(error) => return Err(error.into()),
        };
        order.payment_id = payment.id.clone();
        match self
            .store
            .place_order_with_follow_up(&order, &self.coupon_limits(&order), &follow_up)
            .await
        {
            // A submit of the same form that lost its answer placed the order as pending
            // meanwhile: this charge is the one it waits for.
            Ok(placed)
                if placed.payment_status == PaymentStatus::Pending
                    && placed.payment_key == order.payment_key =>
            {
                self.record_answer(&placed, Ok(&payment), now).await
            }
            Ok(placed) => {
                self.keep_card_for_renewals(&placed, card, now).await;
                Ok(placed)
            }
            Err(error) => {
                // The order was not placed, so the shopper must not pay for it.
                give_back(&*self.store, &*self.payments, &payment, &key, now).await;
                Err(error.into())
            }
        }
    }

    /// Asks the gateway again, with the same idempotency key and the same fields, for the
    /// charge of an order whose payment is pending: the gateway answers the first charge if
    /// it was made, makes it if it was not, or declines it. The answer is recorded as a
    /// report of the gateway's, so it and the webhook settle the order the same way, once.
    async fn retry_pending(
        &self,
        order: Order,
        form: &CheckoutForm,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        let needs = CheckoutNeeds {
            shipping: order.shipping_address.is_some(),
            payment: true,
        };
        let card = form
            .check(needs, now)
            .map_err(CheckoutError::Invalid)?
            .card
            .ok_or_else(|| CheckoutError::Invalid(CheckoutFieldErrors::new()))?;
        let attempt = IdempotencyKey::parse(order.payment_key.clone()).map_err(|_| {
            RepositoryError::Corrupt {
                what: "a pending order's payment key".into(),
                reason: order.payment_key.clone(),
            }
        })?;
        match self
            .payments
            .charge(&charge_request(&order, attempt, card))
            .await
        {
            Ok(payment) => self.record_answer(&order, Ok(&payment), now).await,
            // The order's page says the payment failed and nothing was charged.
            Err(error @ PaymentError::Declined { .. }) => {
                self.record_answer(&order, Err(&error), now).await
            }
            // Still no answer, or the gateway is away: the order keeps waiting.
            Err(error) => {
                tracing::warn!(payment_key = order.payment_key, %error, "a pending payment is still not settled");
                Ok(order)
            }
        }
    }

    /// Records the gateway's answer about a pending order's charge, as its webhook would:
    /// a charge settles the order (which claims it), a decline fails it.
    pub(super) async fn record_answer(
        &self,
        order: &Order,
        answer: Result<&Payment, &PaymentError>,
        now: Timestamp,
    ) -> Result<Order, CheckoutError> {
        let (payment_id, outcome) = match answer {
            Ok(payment) => (payment.id.clone(), PaymentOutcome::Succeeded),
            Err(_) => (String::new(), PaymentOutcome::Failed),
        };
        let event = PaymentEvent {
            // Not a provider's id (Stripe's start with `evt_`): one per answer, so the same
            // answer recorded twice is a duplicate.
            id: format!("checkout:{}:{}", order.payment_key, outcome.as_str()),
            payment_id,
            payment_key: Some(order.payment_key.clone()),
            outcome,
        };
        if let Reconciliation::Refunding { order_id, payment } =
            self.store.reconcile_payment(&event, now).await?
        {
            // The order failed meanwhile and gave back what placing it took.
            tracing::warn!(
                order = order_id,
                payment = payment.id,
                "a payment succeeded for an order that had failed; it is given back"
            );
            refund_claimed(&*self.store, &*self.payments, &payment).await;
        }
        Ok(self
            .store
            .order(&order.id)
            .await?
            .unwrap_or_else(|| order.clone()))
    }

    /// Keeps the card a subscription order was paid with for its renewals. The order is
    /// placed and paid whatever happens here: a card that cannot be kept leaves the
    /// subscription without one, and its first renewal asks the shopper for a card.
    async fn keep_card_for_renewals(&self, order: &Order, card: CardDetails, now: Timestamp) {
        let (Some(renewals), Some(subscription)) =
            (&self.renewals, crate::checkout::Subscription::start(order))
        else {
            return;
        };
        if let Err(error) = renewals
            .save_checkout_card(&subscription.id, &order.idempotency_key, card, now)
            .await
        {
            tracing::warn!(
                subscription = subscription.id,
                %error,
                "the card of a subscription could not be kept for its renewals"
            );
        }
    }

    /// Records the card the provider kept while the shopper paid a subscription order in the
    /// browser (`token`, as renewals charge it). As with a card typed into the form, the order
    /// stands whatever happens here, and a subscription without a card asks for one at its
    /// first renewal.
    pub(super) async fn keep_saved_card_for_renewals(
        &self,
        order: &Order,
        token: String,
        now: Timestamp,
    ) {
        let (Some(renewals), Some(subscription)) =
            (&self.renewals, crate::checkout::Subscription::start(order))
        else {
            return;
        };
        if let Err(error) = renewals
            .record_checkout_card(&subscription.id, token, now)
            .await
        {
            tracing::warn!(
                subscription = subscription.id,
                %error,
                "the card a subscription was paid with could not be recorded for its renewals"
            );
        }
    }

    /// Holds the cart's limited stock for a payment about to be made; stock that other carts
    /// hold is out of stock for this one.
    pub(super) async fn hold_for_payment(
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
    pub(super) fn coupon_limits(&self, order: &Order) -> Vec<CouponLimit> {
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
}

/// The charge of `order`'s rest due under `key`: always the same fields for the same order,
/// since a gateway refuses a key repeated with other parameters.
fn charge_request(order: &Order, key: IdempotencyKey, card: CardDetails) -> PaymentRequest {
    PaymentRequest {
        key,
        amount_minor: order.rest_due_cents(),
        currency: order.currency,
        card,
        email: order.email.clone(),
        description: charge_description(order),
    }
}

/// What a charge is for, as the gateway shows it (on a receipt, in its dashboard): the
/// order's lines, at most 500 characters. Not the order id: each submit of a checkout
/// proposes its own, and a double submit must ask the gateway for the very same charge
/// under its key.
pub(super) fn charge_description(order: &Order) -> String {
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

/// Where a checkout stands once its order is prepared.
pub(super) enum ToPay<T> {
    /// Nothing was left to pay: the order is placed.
    Placed(Order),
    /// The rest is due: the cart's stock is held, and the order (not yet placed) carries the
    /// payment's key, `attempt`; `checked` is what the check before paying answered.
    Due {
        order: Order,
        follow_up: OrderFollowUp,
        attempt: IdempotencyKey,
        checked: T,
    },
}

/// An order made from a checkout form, not yet paid or placed, with the cart it came from
/// and the mails and reminders to schedule when it is placed.
pub(super) struct PreparedOrder {
    pub(super) cart: CartState,
    pub(super) order: Order,
    pub(super) follow_up: OrderFollowUp,
    pub(super) requires_shipping: bool,
}
