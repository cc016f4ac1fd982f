//! The in-memory [`CommerceStore`], for tests and for running without a database.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;

use super::failed_order::{TakenByPlacing, payment_fails_order};
use super::follow_up::{OrderFollowUp, ScheduledMail};
use super::fulfilment::OwnerOrder;
use super::ledger::{MemoryPaymentLedger, PaymentUse, delegate_payment_ledger};
use super::order::{CouponLimit, IdempotencyKey, Order, PlaceOrderError};
use super::payment::Payment;
use super::payment_events::{
    PaymentEvent, PaymentEventLog, PaymentOutcome, PaymentStatus, Reconciliation,
};
use super::placed_between::PlacedBetween;
use super::store::{CommerceStore, HoldStockError};
use super::subscription::Subscription;
use crate::cart::{CartState, CartToken, CouponCode, CouponUsage, Stock, StockHolds, Timestamp};
use crate::catalog::Sku;
use crate::gift_cards::{GiftCard, GiftCardCode};
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

mod aftercare;
mod failed_order;

#[derive(Default)]
pub(super) struct Inner {
    carts: HashMap<CartToken, CartState>,
    stock: HashMap<Sku, Stock>,
    orders: Vec<Order>,
    pub(super) subscriptions: Vec<Subscription>,
    /// Renewal claims and the mails renewals enqueued (`renewal_memory.rs`).
    pub(super) renewals: super::renewal_memory::RenewalLedger,
    holds: StockHolds,
    /// What each placed order's transaction wrote beside it, by order id.
    follow_ups: Vec<(String, OrderFollowUp)>,
    /// The orders whose held confirmation a successful payment made due, in that order.
    released_confirmations: Vec<String>,
    /// The gift card mails held for their order's payment that its success made due, each
    /// with the time it is due then.
    released_gift_card_mails: Vec<ScheduledMail>,
    gift_cards: Vec<GiftCard>,
    /// The orders whose gift card codes were shown in full once.
    revealed: std::collections::HashSet<String>,
    /// The ids of the payment reports recorded.
    payment_events: std::collections::HashSet<String>,
    /// The orders whose failed payment gave their coupons' uses back (`memory/failed_order.rs`).
    coupon_uses_given_back: std::collections::HashSet<String>,
    /// Refunds and fulfilment by order id (`memory/aftercare.rs`).
    aftercare: HashMap<String, super::aftercare::Aftercare>,
    /// The mails refunds, cancellations and fulfilment sent.
    aftercare_mails: Vec<crate::forms::Mail>,
}

impl Inner {
    /// The order as stored, with its gift cards' balances as they are now.
    fn read_order(&self, order: &Order) -> Order {
        Order {
            gift_cards: self.cards_of(&order.id),
            ..order.clone()
        }
    }

    /// Makes due the mails the order `order_id` held for its payment, which succeeded at
    /// `now`. The mails held by an order whose payment failed are simply never made due.
    fn release_held_mails(&mut self, order_id: &str, now: Timestamp) {
        let Some((_, follow_up)) = self.follow_ups.iter().find(|(id, _)| id == order_id) else {
            return;
        };
        let confirmation = follow_up.confirmation_waits_for_payment;
        let gift_card_mails: Vec<ScheduledMail> = if follow_up.gift_card_mails_wait_for_payment {
            follow_up
                .gift_card_mails
                .iter()
                .map(|scheduled| ScheduledMail {
                    mail: scheduled.mail.clone(),
                    due: scheduled.due_once_paid(now),
                })
                .collect()
        } else {
            Vec::new()
        };
        if confirmation {
            self.released_confirmations.push(order_id.to_owned());
        }
        self.released_gift_card_mails.extend(gift_card_mails);
    }

    fn cards_of(&self, order_id: &str) -> Vec<GiftCard> {
        self.gift_cards
            .iter()
            .filter(|card| card.order_id == order_id)
            .cloned()
            .collect()
    }
}

/// Everything behind one mutex, which makes `place_order` atomic: no other call can see or
/// change the store half-way through it.
/// The payment ledger is its own, unless [`Self::with_ledger`] shares one with the
/// contribution store.
#[derive(Default)]
pub struct InMemoryCommerceStore {
    inner: Mutex<Inner>,
    ledger: Arc<MemoryPaymentLedger>,
}

delegate_payment_ledger!(InMemoryCommerceStore, ledger);

impl InMemoryCommerceStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// The same store claiming charges in `ledger`.
    pub fn with_ledger(mut self, ledger: Arc<MemoryPaymentLedger>) -> Self {
        self.ledger = ledger;
        self
    }

    /// The follow-up written with each placed order, by order id, in the order of placing.
    /// There is no in-memory outbox worker for them: a server that sends mail keeps its
    /// orders in a database, where the delivery worker reads them.
    pub fn follow_ups(&self) -> Vec<(String, OrderFollowUp)> {
        self.lock().follow_ups.clone()
    }

    /// The orders whose confirmation waited for the payment and was made due by its success.
    pub fn released_confirmations(&self) -> Vec<String> {
        self.lock().released_confirmations.clone()
    }

    /// The mails giving gift cards to their recipients that go out, each with the time it is
    /// due: those of the orders placed paid, in the order of placing, then those held for a
    /// payment whose success made them due, in the order of the successes. A mail still held,
    /// or dropped with its order's failed payment, is none of them.
    pub fn gift_card_mails(&self) -> Vec<ScheduledMail> {
        let inner = self.lock();
        inner
            .follow_ups
            .iter()
            .filter(|(_, follow_up)| !follow_up.gift_card_mails_wait_for_payment)
            .flat_map(|(_, follow_up)| follow_up.gift_card_mails.iter().cloned())
            .chain(inner.released_gift_card_mails.iter().cloned())
            .collect()
    }

    /// The subscriptions `keep` keeps, newest first (ties by id, later first), as the
    /// database adapters order them.
    fn subscriptions_where(&self, keep: impl Fn(&Subscription) -> bool) -> Vec<Subscription> {
        let mut found: Vec<Subscription> = self
            .lock()
            .subscriptions
            .iter()
            .filter(|subscription| keep(subscription))
            .cloned()
            .collect();
        found.sort_by(|a, b| (b.started, &b.id).cmp(&(a.started, &a.id)));
        found
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic in another test thread must not hide this store's data; the data is
        // consistent at every unlock, so a poisoned lock is safe to reuse.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl CommerceStore for InMemoryCommerceStore {
    async fn load_cart(&self, token: &CartToken) -> Result<Option<CartState>, RepositoryError> {
        Ok(self.lock().carts.get(token).cloned())
    }

    async fn save_cart(&self, token: &CartToken, cart: &CartState) -> Result<(), RepositoryError> {
        let mut inner = self.lock();
        if inner
            .carts
            .get(token)
            .is_some_and(|stored| stored.is_purchased)
        {
            return Err(RepositoryError::Rejected(
                "the cart has been purchased".into(),
            ));
        }
        inner.carts.insert(token.clone(), cart.clone());
        Ok(())
    }

    async fn set_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError> {
        self.lock().stock.insert(sku.clone(), stock);
        Ok(())
    }

    async fn seed_stock(&self, sku: &Sku, stock: Stock) -> Result<(), RepositoryError> {
        self.lock().stock.entry(sku.clone()).or_insert(stock);
        Ok(())
    }

    async fn stock(&self, sku: &Sku) -> Result<Option<Stock>, RepositoryError> {
        Ok(self.lock().stock.get(sku).copied())
    }

    async fn place_order_with_follow_up(
        &self,
        order: &Order,
        coupon_limits: &[CouponLimit],
        follow_up: &OrderFollowUp,
    ) -> Result<Order, PlaceOrderError> {
        let mut inner = self.lock();
        if let Some(placed) = inner
            .orders
            .iter()
            .find(|placed| placed.idempotency_key == order.idempotency_key)
        {
            return Ok(inner.read_order(placed));
        }
        match inner.carts.get(&order.cart_token) {
            None => return Err(PlaceOrderError::UnknownCart),
            Some(cart) if cart.is_purchased => return Err(PlaceOrderError::AlreadyPurchased),
            Some(_) => {}
        }
        for limit in coupon_limits {
            let using = inner
                .orders
                .iter()
                .filter(|placed| placed.coupon_codes.contains(&limit.code))
                .filter(|placed| inner.uses_coupons(placed));
            let (total, by_customer) = using.fold((0u32, 0u32), |(total, mine), placed| {
                let same = placed.email.eq_ignore_ascii_case(&order.email);
                (total + 1, mine + u32::from(same))
            });
            let reached = limit.total.is_some_and(|cap| total >= cap)
                || limit.per_customer.is_some_and(|cap| by_customer >= cap);
            if reached {
                return Err(PlaceOrderError::CouponLimitReached(limit.code.clone()));
            }
        }
        // Check every line before changing any, so a short line leaves everything as it was.
        // What other carts hold at checkout is not for sale to this one.
        for (sku, quantity) in order.units_by_sku() {
            if let Some(stock @ Stock::Limited(_)) = inner.stock.get(&sku)
                && inner
                    .holds
                    .available(&sku, *stock, &order.cart_token, order.created)
                    < quantity
            {
                return Err(PlaceOrderError::OutOfStock(sku));
            }
        }
        if let Some(payment) = &order.gift_card_payment {
            let holds_it = inner.gift_cards.iter().any(|card| {
                card.code == payment.code
                    && card.currency == order.currency
                    && card.remaining_cents >= payment.amount_cents
            });
            if !holds_it {
                return Err(PlaceOrderError::GiftCardBalanceChanged(
                    payment.code.clone(),
                ));
            }
        }
        let taken = order
            .gift_cards
            .iter()
            .any(|new| inner.gift_cards.iter().any(|card| card.code == new.code));
        if taken {
            return Err(RepositoryError::Rejected("a gift card code is taken".into()).into());
        }
        // The last check, since a claim cannot be taken back: the ledger's lock is taken
        // inside the store's, so no refund can claim the charge between here and the order.
        let paid = !order.payment_id.is_empty();
        if paid
            && !self.ledger.claim(
                &order.payment_id,
                &order.idempotency_key,
                PaymentUse::Order,
                order.created,
            )
        {
            return Err(PlaceOrderError::PaymentRefunded(order.payment_id.clone()));
        }
        inner.holds.release(&order.cart_token);
        if let Some(payment) = &order.gift_card_payment
            && let Some(card) = inner
                .gift_cards
                .iter_mut()
                .find(|card| card.code == payment.code)
        {
            card.remaining_cents -= payment.amount_cents;
        }
        inner.gift_cards.extend(order.gift_cards.iter().cloned());
        for line in &order.lines {
            if let Some(Stock::Limited(quantity)) = inner.stock.get_mut(&line.sku) {
                *quantity -= line.quantity;
            }
        }
        if let Some(cart) = inner.carts.get_mut(&order.cart_token) {
            cart.is_purchased = true;
            cart.order_id = order.id.clone();
            cart.reserved_until = None;
        }
        inner.orders.push(order.clone());
        inner.subscriptions.extend(Subscription::start(order));
        inner.follow_ups.push((order.id.clone(), follow_up.clone()));
        Ok(inner.read_order(order))
    }

    async fn browser_payments_opened_before(
        &self,
        opened_before: Timestamp,
        limit: u32,
    ) -> Result<Vec<super::WaitingBrowserPayment>, RepositoryError> {
        let inner = self.lock();
        let mut waiting: Vec<super::WaitingBrowserPayment> = inner
            .orders
            .iter()
            .filter(|order| {
                order.payment_status == PaymentStatus::Pending && order.created < opened_before
            })
            .filter_map(|order| {
                let (_, follow_up) = inner.follow_ups.iter().find(|(id, _)| *id == order.id)?;
                Some(super::WaitingBrowserPayment {
                    order_id: order.id.clone(),
                    intent_id: follow_up.browser_intent.clone()?,
                    opened: order.created,
                })
            })
            .collect();
        waiting.sort_by_key(|payment| (payment.opened, payment.order_id.clone()));
        waiting.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(waiting)
    }

    async fn hold_stock(
        &self,
        token: &CartToken,
        lines: &[(Sku, u32)],
        now: Timestamp,
        seconds: i64,
    ) -> Result<Timestamp, HoldStockError> {
        let mut inner = self.lock();
        let Inner { stock, holds, .. } = &mut *inner;
        holds.release_expired(now);
        let limited: Vec<(Sku, u32)> = lines
            .iter()
            .filter(|(sku, _)| matches!(stock.get(sku), Some(Stock::Limited(_))))
            .cloned()
            .collect();
        let stock_of = |sku: &Sku| stock.get(sku).copied().unwrap_or(Stock::Unlimited);
        Ok(holds.hold(token, &limited, stock_of, now, seconds)?)
    }

    async fn release_holds(&self, token: &CartToken) -> Result<(), RepositoryError> {
        self.lock().holds.release(token);
        Ok(())
    }

    async fn held_by_others(
        &self,
        sku: &Sku,
        token: &CartToken,
        now: Timestamp,
    ) -> Result<u32, RepositoryError> {
        Ok(self.lock().holds.held_by_others(sku, token, now))
    }

    async fn order(&self, id: &str) -> Result<Option<Order>, RepositoryError> {
        let inner = self.lock();
        Ok(inner
            .orders
            .iter()
            .find(|order| order.id == id)
            .map(|order| inner.read_order(order)))
    }

    async fn order_by_key(&self, key: &IdempotencyKey) -> Result<Option<Order>, RepositoryError> {
        let inner = self.lock();
        Ok(inner
            .orders
            .iter()
            .find(|order| &order.idempotency_key == key)
            .map(|order| inner.read_order(order)))
    }

    async fn orders_by_email(
        &self,
        email: &str,
        limit: u32,
    ) -> Result<Vec<Order>, RepositoryError> {
        let inner = self.lock();
        let email = email.to_lowercase();
        let mut orders: Vec<Order> = inner
            .orders
            .iter()
            .filter(|order| order.email.to_lowercase() == email)
            .map(|order| inner.read_order(order))
            .collect();
        orders.sort_by(|a, b| b.created.cmp(&a.created).then_with(|| b.id.cmp(&a.id)));
        orders.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(orders)
    }

    async fn orders_placed_between(
        &self,
        email: &str,
        placed: PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Order>, RepositoryError> {
        let mut orders = self.orders_by_email(email, u32::MAX).await?;
        orders.retain(|order| placed.contains(order.created));
        orders.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(orders)
    }

    async fn order_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<OwnerOrder>, RepositoryError> {
        let inner = self.lock();
        let mut matching: Vec<OwnerOrder> = inner
            .orders
            .iter()
            .filter(|order| query.matches(&[&order.id, &order.email]))
            .map(|order| OwnerOrder {
                order: Order {
                    gift_cards: Vec::new(),
                    ..order.clone()
                },
                fulfilment: inner
                    .aftercare
                    .get(&order.id)
                    .map(|care| care.fulfilment.clone())
                    .unwrap_or_default(),
            })
            .collect();
        matching
            .sort_by(|a, b| (b.order.created, &b.order.id).cmp(&(a.order.created, &a.order.id)));
        Ok(query.cut(matching))
    }

    async fn erase_orders_of(
        &self,
        email: &str,
        placed: PlacedBetween,
    ) -> Result<u32, RepositoryError> {
        let mut inner = self.lock();
        let email = email.to_lowercase();
        let mut erased = Vec::new();
        for order in &mut inner.orders {
            // An erased order's empty address belongs to nobody, so it is never matched.
            if !email.is_empty()
                && order.email.to_lowercase() == email
                && placed.contains(order.created)
            {
                order.email.clear();
                order.shipping_address = order.shipping_address.as_ref().map(|a| a.erased());
                erased.push(order.id.clone());
            }
        }
        for subscription in &mut inner.subscriptions {
            if erased.contains(&subscription.order_id) {
                subscription.email.clear();
            }
        }
        for card in &mut inner.gift_cards {
            let sent_to_email = card
                .recipient
                .as_ref()
                .is_some_and(|recipient| recipient.email.to_lowercase() == email);
            if !email.is_empty() && sent_to_email && placed.contains(card.created) {
                card.recipient = None;
            }
        }
        Ok(u32::try_from(erased.len()).unwrap_or(u32::MAX))
    }

    async fn gift_card(&self, code: &GiftCardCode) -> Result<Option<GiftCard>, RepositoryError> {
        Ok(self
            .lock()
            .gift_cards
            .iter()
            .find(|card| &card.code == code)
            .cloned())
    }

    async fn subscription(&self, id: &str) -> Result<Option<Subscription>, RepositoryError> {
        Ok(self
            .lock()
            .subscriptions
            .iter()
            .find(|subscription| subscription.id == id)
            .cloned())
    }

    async fn claim_subscription(
        &self,
        id: &str,
        account: &str,
    ) -> Result<Option<String>, RepositoryError> {
        let mut inner = self.lock();
        let Some(subscription) = inner.subscriptions.iter_mut().find(|s| s.id == id) else {
            return Ok(None);
        };
        Ok(Some(
            subscription
                .account
                .get_or_insert_with(|| account.to_owned())
                .clone(),
        ))
    }

    async fn subscriptions_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        Ok(self
            .subscriptions_where(|subscription| subscription.account.as_deref() == Some(account)))
    }

    async fn subscriptions_by_email(
        &self,
        email: &str,
    ) -> Result<Vec<Subscription>, RepositoryError> {
        Ok(self.subscriptions_where(|subscription| subscription.email.eq_ignore_ascii_case(email)))
    }

    async fn order_gift_cards(&self, order_id: &str) -> Result<Vec<GiftCard>, RepositoryError> {
        Ok(self.lock().cards_of(order_id))
    }

    async fn reveal_gift_card_codes(&self, order_id: &str) -> Result<bool, RepositoryError> {
        let mut inner = self.lock();
        if !inner.orders.iter().any(|order| order.id == order_id) {
            return Ok(false);
        }
        Ok(inner.revealed.insert(order_id.to_owned()))
    }

    async fn coupon_usage(
        &self,
        code: &CouponCode,
        email: &str,
    ) -> Result<CouponUsage, RepositoryError> {
        let inner = self.lock();
        let using: Vec<&Order> = inner
            .orders
            .iter()
            .filter(|order| order.coupon_codes.contains(code))
            .filter(|order| inner.uses_coupons(order))
            .collect();
        let by_customer = using
            .iter()
            .filter(|order| order.email.eq_ignore_ascii_case(email))
            .count();
        Ok(CouponUsage {
            total: u32::try_from(using.len()).unwrap_or(u32::MAX),
            by_customer: u32::try_from(by_customer).unwrap_or(u32::MAX),
        })
    }
}

impl InMemoryCommerceStore {
    /// Whether `event` is about `order`: the order paid with its charge, or the one still
    /// pending without a charge id that asked for the charge under its idempotency key.
    fn reported_about(order: &Order, event: &PaymentEvent) -> bool {
        if order.payment_id.is_empty() {
            !order.payment_key.is_empty()
                && event.payment_key.as_deref() == Some(order.payment_key.as_str())
        } else {
            order.payment_id == event.payment_id
        }
    }
}

#[async_trait]
impl PaymentEventLog for InMemoryCommerceStore {
    async fn reconcile_payment(
        &self,
        event: &PaymentEvent,
        now: Timestamp,
    ) -> Result<Reconciliation, RepositoryError> {
        let mut inner = self.lock();
        if !inner.payment_events.insert(event.id.clone()) {
            return Ok(Reconciliation::Duplicate);
        }
        let waiting_in_browser = |order: &Order| {
            order.payment_status == PaymentStatus::Pending
                && inner
                    .follow_ups
                    .iter()
                    .any(|(id, follow_up)| *id == order.id && follow_up.browser_intent.is_some())
        };
        let in_browser = inner
            .orders
            .iter()
            .find(|order| Self::reported_about(order, event))
            .is_some_and(waiting_in_browser);
        let Some(order) = inner
            .orders
            .iter_mut()
            .find(|order| Self::reported_about(order, event))
        else {
            return Ok(Reconciliation::NoOrder);
        };
        if in_browser && event.outcome == PaymentOutcome::Declined {
            // The payer may confirm the same intent again with another card.
            return Ok(Reconciliation::Declined {
                order_id: order.id.clone(),
                payment_id: event.payment_id.clone(),
            });
        }
        let mut outcome = event.outcome;
        if order.payment_id.is_empty()
            && outcome == PaymentOutcome::Succeeded
            && order.payment_status == PaymentStatus::Failed
        {
            // The order gave back what placing it took when it failed: the charge goes back
            // too, claimed for its refund here so that it is given back once.
            let order_id = order.id.clone();
            if !self.ledger.claim(
                &event.payment_id,
                &order.idempotency_key,
                PaymentUse::Refund,
                now,
            ) {
                return Ok(Reconciliation::Applied {
                    order_id,
                    status: PaymentStatus::Failed,
                });
            }
            return Ok(Reconciliation::Refunding {
                order_id,
                payment: Payment {
                    id: event.payment_id.clone(),
                    amount_minor: order.rest_due_cents(),
                    currency: order.currency,
                },
            });
        }
        if order.payment_id.is_empty() && outcome == PaymentOutcome::Succeeded {
            // The charge the pending order waited for: the order claims it, unless a refund
            // claimed it first, in which case the money went back.
            if self.ledger.claim(
                &event.payment_id,
                &order.idempotency_key,
                PaymentUse::Order,
                now,
            ) {
                order.payment_id = event.payment_id.clone();
            } else {
                outcome = PaymentOutcome::Refunded;
            }
        }
        let before = order.payment_status;
        order.payment_status = order.payment_status.after(outcome);
        let (order_id, status) = (order.id.clone(), order.payment_status);
        if payment_fails_order(before, status) {
            // Nothing was bought: what placing the order took is given back, once.
            let taken = TakenByPlacing::of(order);
            inner.give_back(&taken);
        }
        if before == PaymentStatus::Pending && status == PaymentStatus::Paid {
            inner.release_held_mails(&order_id, now);
        }
        Ok(Reconciliation::Applied { order_id, status })
    }
}
