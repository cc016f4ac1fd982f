//! The in-memory store's give-back of what a failed order's placing took
//! ([`TakenByPlacing`]), done under the store's lock with the order's move to failed.

use super::Inner;
use crate::checkout::failed_order::{TakenByPlacing, balance_given_back};
use crate::checkout::order::Order;

impl Inner {
    /// Gives back everything `taken` names: units to stock, the cart to its shopper, the
    /// gift card's balance, the coupons' uses; and empties the cards the order issued.
    pub(super) fn give_back(&mut self, taken: &TakenByPlacing) {
        self.restock(&taken.units);
        if let Some(cart) = self.carts.get_mut(&taken.cart) {
            cart.is_purchased = false;
            cart.order_id = String::new();
        }
        if let Some(payment) = &taken.gift_card
            && let Some(card) = self
                .gift_cards
                .iter_mut()
                .find(|card| card.code == payment.code)
        {
            card.remaining_cents = balance_given_back(
                card.remaining_cents,
                payment.amount_cents,
                card.initial_cents,
            );
        }
        if !taken.coupons.is_empty() {
            self.coupon_uses_given_back.insert(taken.order_id.clone());
        }
        for card in &mut self.gift_cards {
            if card.order_id == taken.order_id {
                card.remaining_cents = 0;
            }
        }
    }

    /// Whether `order` counts as a use of its coupons: it does unless its payment failed
    /// and gave the uses back.
    pub(super) fn uses_coupons(&self, order: &Order) -> bool {
        !self.coupon_uses_given_back.contains(&order.id)
    }
}
