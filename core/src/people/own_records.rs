//! Which records kept under an address are an account's: those of the spans it held the
//! address confirmed ([`AddressHold`]), never those of the account that held it before or
//! after. The account page lists these orders and donations, the export holds them, and
//! deleting the account erases them (`erasure.rs`).

use super::model::{Account, AddressHold};
use super::service::{PeopleService, Unavailable};
use crate::cart::Timestamp;
use crate::checkout::{Contribution, Order};
use crate::ports::RepositoryError;

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
        let orders = &self.records.orders;
        self.newest_under_holds(
            account,
            limit,
            |hold| async move {
                orders
                    .orders_placed_between(hold.email.as_str(), hold.placed, limit)
                    .await
            },
            |order| (order.created, &order.id),
        )
        .await
    }

    /// The newest `limit` donations given with `account`'s addresses within its holds of
    /// them, newest first (ties by id, later first): as for [`Self::orders_of`], the set its
    /// page lists, its export holds and its deletion erases.
    pub async fn contributions_of(
        &self,
        account: &Account,
        limit: u32,
    ) -> Result<Vec<Contribution>, Unavailable> {
        let contributions = &self.records.contributions;
        self.newest_under_holds(
            account,
            limit,
            |hold| async move {
                contributions
                    .contributions_made_between(hold.email.as_str(), hold.placed, limit)
                    .await
            },
            |given| (given.created, &given.id),
        )
        .await
    }

    /// What `read` finds under each of `account`'s holds, the newest `limit` of it by the
    /// (time, id) `key`, each record once.
    async fn newest_under_holds<T, Found>(
        &self,
        account: &Account,
        limit: u32,
        read: impl Fn(AddressHold) -> Found,
        key: impl Fn(&T) -> (Timestamp, &String),
    ) -> Result<Vec<T>, Unavailable>
    where
        Found: Future<Output = Result<Vec<T>, RepositoryError>>,
    {
        let mut records = Vec::new();
        for hold in self.address_holds(account).await? {
            records.extend(read(hold).await?);
        }
        Ok(newest_once(records, limit, key))
    }
}

/// The newest `limit` of `records` by their (time, id) `key`, newest first, each once: an
/// account that came back to an address may hold spans that overlap, and a record found
/// under both is one record.
fn newest_once<T>(
    mut records: Vec<T>,
    limit: u32,
    key: impl Fn(&T) -> (Timestamp, &String),
) -> Vec<T> {
    records.sort_by(|a, b| key(b).cmp(&key(a)));
    records.dedup_by(|a, b| key(a).1 == key(b).1);
    records.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    records
}
