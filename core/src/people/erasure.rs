//! Account deletion that really erases personal data: the account, its sessions and tokens
//! go, the orders placed with its confirmed address lose their personal fields (the law lets
//! a shop keep the rest for its books), gift cards sent to the address lose their recipient,
//! its donations lose the donor's name and address (amount and date stay for the books), and
//! the address's newsletter subscriptions end and are erased, and the mails to the address
//! still waiting in the outbox are withdrawn, never sent. The same goes for every address
//! the account confirmed before and moved away from. Orders, gift cards and donations are
//! erased within the account's [holds](AddressHold) of each address only, so the account that
//! held an address before or after it keeps its own; the records of an address kept without
//! a time (newsletters, waiting mails) go only while no other account has confirmed the
//! address since. Form submissions stay: they are the site owner's records, not the
//! account's.

use std::sync::Arc;

use super::model::{Account, AddressHold};
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
    /// Erases `account` and the personal data kept under its
    /// [holds of addresses](PeopleService::address_holds). The records go first and the
    /// account last (it holds the list of its holds), so a failure half-way leaves an account
    /// whose owner can sign in and delete it again, never orphaned records nobody may ask to
    /// erase.
    pub async fn delete_account(&self, account: &Account) -> Result<Erased, Unavailable> {
        let mut erased = Erased {
            account: false,
            orders: 0,
            subscriptions: 0,
            contributions: 0,
        };
        for hold in self.address_holds(account).await? {
            self.erase_records_of(&hold, &mut erased).await?;
        }
        erased.account = self.store.delete_account(&account.id).await?;
        Ok(erased)
    }

    /// Erases what the site keeps under one address for one hold of it, counting it into
    /// `erased`.
    async fn erase_records_of(
        &self,
        hold: &AddressHold,
        erased: &mut Erased,
    ) -> Result<(), Unavailable> {
        let email = hold.email.as_str();
        erased.orders += self
            .records
            .orders
            .erase_orders_of(email, hold.placed)
            .await?;
        erased.contributions += self
            .records
            .contributions
            .erase_contributions_of(email, hold.placed)
            .await?;
        if hold.superseded {
            // What the address keeps without a time is its later holder's now.
            return Ok(());
        }
        erased.subscriptions += self
            .records
            .newsletters
            .erase_subscriptions_of(email)
            .await?;
        // A database's order erasure withdraws the mails to the address in its own
        // transaction; this catches those an outbox of its own holds, and any queued
        // meanwhile (a reset asked for in another tab), before the account goes.
        self.outbox.withdraw_mails_to(email).await?;
        Ok(())
    }
}
