//! Stock holds: while a cart is at checkout its items are held for a configurable time, so
//! another shopper cannot take them, and released when the time runs out.

use std::collections::BTreeMap;

use super::entry::Stock;
use super::ids::{CartToken, Timestamp};
use crate::catalog::Sku;

/// Why a hold could not be taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HoldError {
    #[error("only {available} of SKU {} can be held", sku.as_str())]
    Insufficient { sku: Sku, available: u32 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hold {
    quantity: u32,
    expires_at: Timestamp,
}

/// The holds in force, per SKU and cart. Time comes in as an argument; a hold whose
/// `expires_at` is at or before `now` no longer counts.
#[derive(Debug, Clone, Default)]
pub struct StockHolds {
    holds: BTreeMap<(Sku, CartToken), Hold>,
}

impl StockHolds {
    /// Units of `sku` that `cart` may still take: the stock less what other carts hold.
    pub fn available(&self, sku: &Sku, stock: Stock, cart: &CartToken, now: Timestamp) -> u32 {
        let Stock::Limited(quantity) = stock else {
            return u32::MAX;
        };
        quantity.saturating_sub(self.held_by_others(sku, cart, now))
    }

    /// Units of `sku` that carts other than `cart` hold at `now`.
    pub fn held_by_others(&self, sku: &Sku, cart: &CartToken, now: Timestamp) -> u32 {
        self.holds
            .iter()
            .filter(|((held_sku, holder), hold)| {
                held_sku == sku && holder != cart && hold.expires_at > now
            })
            .map(|(_, hold)| hold.quantity)
            .sum()
    }

    /// Holds every line of a cart until `now + seconds`, all or nothing; `stock` reads a
    /// SKU's current stock. Returns the instant the hold ends.
    pub fn hold(
        &mut self,
        cart: &CartToken,
        lines: &[(Sku, u32)],
        stock: impl Fn(&Sku) -> Stock,
        now: Timestamp,
        seconds: i64,
    ) -> Result<Timestamp, HoldError> {
        for (sku, quantity) in lines {
            let available = self.available(sku, stock(sku), cart, now);
            if available < *quantity {
                return Err(HoldError::Insufficient {
                    sku: sku.clone(),
                    available,
                });
            }
        }
        self.release(cart);
        let expires_at = now.plus_seconds(seconds);
        for (sku, quantity) in lines {
            self.holds.insert(
                (sku.clone(), cart.clone()),
                Hold {
                    quantity: *quantity,
                    expires_at,
                },
            );
        }
        Ok(expires_at)
    }

    /// Ends a cart's holds, as when it is purchased or abandons checkout.
    pub fn release(&mut self, cart: &CartToken) {
        self.holds.retain(|(_, holder), _| holder != cart);
    }

    /// Forgets holds that have ended, so the map does not grow without end.
    pub fn release_expired(&mut self, now: Timestamp) {
        self.holds.retain(|_, hold| hold.expires_at > now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(name: &str) -> CartToken {
        CartToken::parse(format!("{name:0>16}")).unwrap()
    }

    #[test]
    fn a_hold_keeps_stock_from_other_carts_until_it_expires() {
        let sku = Sku::parse("MUG").unwrap();
        let stock = |_: &Sku| Stock::Limited(3);
        let mut holds = StockHolds::default();
        let (alice, bob) = (token("alice"), token("bob"));
        let until = holds
            .hold(&alice, &[(sku.clone(), 2)], stock, Timestamp(0), 600)
            .unwrap();
        assert_eq!(until, Timestamp(600_000));
        assert_eq!(holds.available(&sku, stock(&sku), &bob, Timestamp(1)), 1);
        assert_eq!(holds.available(&sku, stock(&sku), &alice, Timestamp(1)), 3);
        assert_eq!(
            holds.hold(&bob, &[(sku.clone(), 2)], stock, Timestamp(1), 600),
            Err(HoldError::Insufficient {
                sku: sku.clone(),
                available: 1
            })
        );
        assert_eq!(holds.available(&sku, stock(&sku), &bob, until), 3);
        holds.release_expired(until);
        assert!(holds.hold(&bob, &[(sku, 3)], stock, until, 600).is_ok());
    }
}
