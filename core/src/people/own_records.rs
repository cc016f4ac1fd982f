//! Which records kept under an address are an account's: those of the spans it held the
//! address confirmed ([`AddressHold`]), never those of the account that held it before or
//! after. The account page lists these orders, the export holds them, and deleting the
//! account erases them (`erasure.rs`).

use super::model::{Account, AddressHold};
use super::service::{PeopleService, Unavailable};
use crate::checkout::Order;

impl PeopleService {
    /// The spans in which `account` held confirmed addresses, whose records are its own: its
    /// current address once confirmed, then the confirmed ones it moved away from
    /// ([`AccountStore::address_holds`](super::AccountStore::address_holds)). An address the
    /// account never verified is never among them: whoever typed somebody else's address
    /// proved nothing, and must neither read nor wipe that person's orders. Nor are the
    /// orders placed with an address outside the span the account held it: they are the
    /// other holders'.
    pub async fn address_holds(&self, account: &Account) -> Result<Vec<AddressHold>, Unavailable> {
        Ok(self.store.address_holds(&account.id).await?)
    }

    /// The newest `limit` orders placed with `account`'s addresses within its holds of them,
    /// newest first (ties by id, later first): the set its export holds and its deletion
    /// erases.
    pub async fn orders_of(
        &self,
        account: &Account,
        limit: u32,
    ) -> Result<Vec<Order>, Unavailable> {
        let mut orders: Vec<Order> = Vec::new();
        for hold in self.address_holds(account).await? {
            let found = self
                .records
                .orders
                .orders_placed_between(hold.email.as_str(), hold.placed, limit)
                .await?;
            // An account that came back to an address may hold spans that overlap.
            for order in found {
                if !orders.iter().any(|kept| kept.id == order.id) {
                    orders.push(order);
                }
            }
        }
        orders.sort_by(|a, b| (b.created, &b.id).cmp(&(a.created, &a.id)));
        orders.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        Ok(orders)
    }
}
