//! What placing an order took, which its failed payment gives back. An order placed while its
//! payment is still pending (a card confirmed in the provider's fields in the browser, a bank's
//! verification, a charge whose answer did not come) takes its units from stock, marks its
//! cart bought, spends the gift card balance it pays part with and counts a use of each of its
//! coupons; it also issues the gift cards it buys. When its payment then fails, nothing was
//! bought: the store gives all of it back in the same step that moves the order to failed, so
//! that the move and the give-back happen together and, like the move, once, however many
//! reports of the failure arrive (see [`super::PaymentEventLog`]). The cards it issued were
//! never paid for: they are emptied, so a code shown while the payment waited buys nothing.

use super::aftercare::RefundLine;
use super::order::Order;
use super::payment_events::PaymentStatus;
use crate::cart::{CartToken, CouponCode};
use crate::gift_cards::GiftCardPayment;

/// Everything placing an order took, as a failed payment gives it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenByPlacing {
    /// The order's id: the gift cards it issued are found by it.
    pub order_id: String,
    /// The units of each SKU the order took from stock, put back.
    pub units: Vec<RefundLine>,
    /// The cart the order bought, the shopper's again, to pay another way.
    pub cart: CartToken,
    /// The balance a gift card paid, added back to that card.
    pub gift_card: Option<GiftCardPayment>,
    /// The coupons whose use the order counted, each usable once more.
    pub coupons: Vec<CouponCode>,
}

impl TakenByPlacing {
    /// What placing `order` took.
    pub fn of(order: &Order) -> Self {
        Self {
            order_id: order.id.clone(),
            units: order
                .units_by_sku()
                .into_iter()
                .map(|(sku, quantity)| RefundLine { sku, quantity })
                .collect(),
            cart: order.cart_token.clone(),
            gift_card: order.gift_card_payment.clone(),
            coupons: order.coupon_codes.clone(),
        }
    }
}

/// Whether a payment report that moves an order from `before` to `after` ends it unpaid, so
/// that what placing it took is given back: a pending order that fails, or whose charge went
/// back before it could pay it (a refund claimed the charge first, or the provider reported
/// the refund first). An order that ended before is not ended again, so a second report
/// gives nothing back twice.
pub fn payment_fails_order(before: PaymentStatus, after: PaymentStatus) -> bool {
    before == PaymentStatus::Pending
        && matches!(after, PaymentStatus::Failed | PaymentStatus::Refunded)
}

/// A gift card's balance once `amount_cents` of a failed order's payment is added back: never
/// more than the card was issued with.
pub fn balance_given_back(remaining_cents: i64, amount_cents: i64, initial_cents: i64) -> i64 {
    remaining_cents
        .saturating_add(amount_cents)
        .min(initial_cents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::{CartState, Purchasable, Stock, StoreRules, Timestamp};
    use crate::catalog::Sku;
    use crate::checkout::order::IdempotencyKey;
    use crate::enums::ProductType;
    use crate::gift_cards::GiftCardCode;

    #[test]
    fn only_a_pending_order_that_ends_unpaid_gives_back() {
        use PaymentStatus::*;
        assert!(payment_fails_order(Pending, Failed));
        assert!(
            payment_fails_order(Pending, Refunded),
            "a charge refunded before it paid the order"
        );
        for (before, after) in [
            (Failed, Failed),
            (Pending, Pending),
            (Pending, Paid),
            (Pending, Disputed),
            (Paid, Refunded),
            (Failed, Paid),
            (Refunded, Refunded),
        ] {
            assert!(
                !payment_fails_order(before, after),
                "{before:?} -> {after:?}"
            );
        }
    }

    #[test]
    fn a_balance_comes_back_up_to_what_the_card_was_issued_with() {
        assert_eq!(balance_given_back(500, 1_500, 5_000), 2_000);
        assert_eq!(balance_given_back(4_000, 1_500, 5_000), 5_000);
    }

    #[test]
    fn placing_took_the_units_the_cart_the_card_balance_and_the_coupons() {
        let now = Timestamp(1_700_000_000_000);
        let mug = Sku::parse("MUG").unwrap();
        let mut cart = CartState::new("cart", "site", now);
        let item = Purchasable::new(
            "product",
            "Mug",
            ProductType::Service,
            mug.clone(),
            1_000,
            Stock::Unlimited,
        );
        cart.add_item(&item, 3).unwrap();
        let token = CartToken::parse("taken-by-placing-cart").unwrap();
        let mut order = Order::from_cart(
            &cart.price(&StoreRules::default(), now),
            "order-1",
            IdempotencyKey::parse("taken-by-placing-key").unwrap(),
            token.clone(),
            "ada@example.com",
            now,
        )
        .unwrap();
        let payment = GiftCardPayment {
            code: GiftCardCode::from_random([7; 10]),
            amount_cents: 1_200,
        };
        order.gift_card_payment = Some(payment.clone());
        order.coupon_codes = vec![CouponCode::parse("ONCE").unwrap()];
        assert_eq!(
            TakenByPlacing::of(&order),
            TakenByPlacing {
                order_id: "order-1".into(),
                units: vec![RefundLine {
                    sku: mug,
                    quantity: 3
                }],
                cart: token,
                gift_card: Some(payment),
                coupons: vec![CouponCode::parse("ONCE").unwrap()],
            }
        );
    }
}
