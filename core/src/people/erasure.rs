//! Account deletion that really erases personal data: the account, its sessions and tokens
//! go, the orders placed with its confirmed address lose their personal fields (the law lets
//! a shop keep the rest for its books), gift cards sent to the address lose their recipient,
//! its donations lose the donor's name and address (amount and date stay for the books), and
//! the address's newsletter subscriptions end and are erased, and the mails to the address
//! still waiting in the outbox are withdrawn, never sent. The same goes for every address
//! the account confirmed before and moved away from, unless another account has confirmed
//! it since. Form submissions stay: they are the site owner's records, not the account's.

use std::sync::Arc;

use super::model::{Account, EmailAddress};
use super::service::{PeopleService, Unavailable};
use crate::checkout::{CommerceStore, ContributionStore};
use crate::forms::NewsletterSubscriptions;

/// The records outside the people store that carry a site user's address, which deleting
/// the account erases.
#[derive(Clone)]
pub struct PersonalRecords {
    pub orders: Arc<dyn CommerceStore>,
    pub newsletters: Arc<dyn NewsletterSubscriptions>,
    pub contributions: Arc<dyn ContributionStore>,
}

/// What deleting an account erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Erased {
    /// Whether the account was still there to delete.
    pub account: bool,
    /// The orders whose personal fields were removed.
    pub orders: u32,
    /// The newsletter subscriptions erased.
    pub subscriptions: u32,
    /// The contributions whose donor's name and address were removed.
    pub contributions: u32,
}

impl PeopleService {
    /// The addresses whose records are `account`'s: its own once confirmed, then the
    /// confirmed ones it moved away from that no other account has confirmed since
    /// ([`AccountStore::earlier_emails`](super::AccountStore::earlier_emails)). An address
    /// the account never verified is never among them: whoever typed somebody else's
    /// address proved nothing, and must neither read nor wipe that person's orders.
    pub async fn verified_addresses(
        &self,
        account: &Account,
    ) -> Result<Vec<EmailAddress>, Unavailable> {
        let mut addresses = Vec::new();
        if account.is_confirmed() {
            addresses.push(account.email.clone());
        }
        for earlier in self.store.earlier_emails(&account.id).await? {
            if !addresses.contains(&earlier) {
                addresses.push(earlier);
            }
        }
        Ok(addresses)
    }

    /// Erases `account` and the personal data kept under its
    /// [verified addresses](Self::verified_addresses). The records go first and the account
    /// last (it holds the list of its earlier addresses), so a failure half-way leaves an
    /// account whose owner can sign in and delete it again, never orphaned records nobody
    /// may ask to erase.
    pub async fn delete_account(&self, account: &Account) -> Result<Erased, Unavailable> {
        let mut erased = Erased {
            account: false,
            orders: 0,
            subscriptions: 0,
            contributions: 0,
        };
        for email in self.verified_addresses(account).await? {
            self.erase_records_of(email.as_str(), &mut erased).await?;
        }
        erased.account = self.store.delete_account(&account.id).await?;
        Ok(erased)
    }

    /// Erases what the site keeps under one address, counting it into `erased`.
    async fn erase_records_of(&self, email: &str, erased: &mut Erased) -> Result<(), Unavailable> {
        erased.orders += self.records.orders.erase_orders_of(email).await?;
        erased.subscriptions += self
            .records
            .newsletters
            .erase_subscriptions_of(email)
            .await?;
        erased.contributions += self
            .records
            .contributions
            .erase_contributions_of(email)
            .await?;
        // A database's order erasure withdraws the mails to the address in its own
        // transaction; this catches those an outbox of its own holds, and any queued
        // meanwhile (a reset asked for in another tab), before the account goes.
        self.outbox.withdraw_mails_to(email).await?;
        Ok(())
    }
}
