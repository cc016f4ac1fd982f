//! Joining member areas: a free area is joined in one step by a signed-in site user; a paid
//! one by an order for one of its subscription plans placed with the account's confirmed
//! address (then the membership-confirmed page, type 208, says so).
//!
//! A paid membership goes to the account holding the order's address, and only once that
//! address is confirmed: whoever signs up with someone else's address first gets nothing the
//! address's owner paid for. An order placed before its address had a confirmed account is
//! honoured when the address is confirmed.

use super::model::{Account, EmailAddress};
use super::service::{PeopleService, Unavailable};
use super::store::AccountWriteError;
use crate::checkout::Order;
use crate::site::{Item, ItemId, MemberArea, MemberAreaAccess};

/// Why a site user could not join a member area.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// No area of the site has this id.
    #[error("This member area does not exist.")]
    UnknownArea,
    /// The area is joined by subscribing, not for free.
    #[error("This member area is joined by subscribing to one of its plans.")]
    Paid,
    /// The account was deleted meanwhile.
    #[error("Please sign in.")]
    UnknownAccount,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

/// What an order did for the member areas of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderMembership<'a> {
    /// The order bought no plan of a paid area.
    NothingBought,
    /// The order bought these areas, but no confirmed account holds its address yet: the
    /// areas are joined when one does.
    AwaitingAccount(Vec<&'a MemberArea>),
    /// The account of the order's address is a member of these areas (joined now, or before
    /// by the same order, since joining again changes nothing).
    Joined(Vec<&'a MemberArea>),
}

impl OrderMembership<'_> {
    /// The areas the order bought, joined or not.
    pub fn areas(&self) -> &[&MemberArea] {
        match self {
            Self::NothingBought => &[],
            Self::AwaitingAccount(areas) | Self::Joined(areas) => areas,
        }
    }
}

/// The plan items among `plans` that `order` bought: those with a variant whose SKU one of the
/// order's lines names. `plans` are the items that paid areas name as plans.
pub fn plans_bought(order: &Order, plans: &[Item]) -> Vec<ItemId> {
    plans
        .iter()
        .filter(|plan| {
            plan.product.as_ref().is_some_and(|product| {
                product.variants.iter().any(|variant| {
                    order
                        .lines
                        .iter()
                        .any(|line| line.subscription_plan.is_some() && line.sku == variant.sku)
                })
            })
        })
        .map(|plan| plan.id.clone())
        .collect()
}

/// The paid areas among `areas` that one of the `bought` plan items is a plan of.
fn paid_areas_of<'a>(areas: &'a [MemberArea], bought: &[ItemId]) -> Vec<&'a MemberArea> {
    areas
        .iter()
        .filter(|area| match &area.access {
            MemberAreaAccess::Paid { plans } => plans.iter().any(|p| bought.contains(p)),
            MemberAreaAccess::Free => false,
        })
        .collect()
}

impl PeopleService {
    /// Grants the paid areas an order bought (`bought`: its plan items, from
    /// [`plans_bought`]) to the confirmed account of the order's address `order_email`.
    /// Safe to repeat: a second call for the same order joins nothing new.
    pub async fn join_areas_of_order<'a>(
        &self,
        order_email: &str,
        areas: &'a [MemberArea],
        bought: &[ItemId],
    ) -> Result<OrderMembership<'a>, Unavailable> {
        let paid = paid_areas_of(areas, bought);
        if paid.is_empty() {
            return Ok(OrderMembership::NothingBought);
        }
        let Ok(email) = EmailAddress::parse(order_email) else {
            return Ok(OrderMembership::AwaitingAccount(paid));
        };
        let account = self.store.account_by_email(&email).await?;
        let Some(account) = account.filter(Account::is_confirmed) else {
            return Ok(OrderMembership::AwaitingAccount(paid));
        };
        match self.add_areas(&account, paid.iter().copied()).await {
            Ok(()) => Ok(OrderMembership::Joined(paid)),
            // Deleted meanwhile: a new account of the address gets the areas on confirmation.
            Err(AccountWriteError::UnknownAccount) => Ok(OrderMembership::AwaitingAccount(paid)),
            Err(error) => Err(error.into()),
        }
    }

    /// The account `id` (after its address was confirmed, to join what it bought before).
    pub async fn account(
        &self,
        id: &super::model::AccountId,
    ) -> Result<Option<Account>, Unavailable> {
        Ok(self.store.account(id).await?)
    }

    /// Makes `account` a member of the free area `area_id` among `areas`. Joining again
    /// changes nothing.
    pub async fn join_free_area(
        &self,
        account: &Account,
        areas: &[MemberArea],
        area_id: &str,
    ) -> Result<(), JoinError> {
        let area = areas
            .iter()
            .find(|area| area.id.as_str() == area_id)
            .ok_or(JoinError::UnknownArea)?;
        if !area.is_free() {
            return Err(JoinError::Paid);
        }
        Ok(self.add_areas(account, [area]).await?)
    }

    /// Makes `account` a member of every paid area among `areas` that one of the `bought`
    /// products is a plan of; the areas joined (none when the order bought no plan).
    pub async fn join_paid_areas<'a>(
        &self,
        account: &Account,
        areas: &'a [MemberArea],
        bought: &[ItemId],
    ) -> Result<Vec<&'a MemberArea>, JoinError> {
        let joined = paid_areas_of(areas, bought);
        if !joined.is_empty() {
            self.add_areas(account, joined.iter().copied()).await?;
        }
        Ok(joined)
    }

    async fn add_areas(
        &self,
        account: &Account,
        areas: impl IntoIterator<Item = &MemberArea>,
    ) -> Result<(), AccountWriteError> {
        let mut member_areas = account.member_areas.clone();
        for area in areas {
            if !member_areas.iter().any(|known| known == area.id.as_str()) {
                member_areas.push(area.id.as_str().to_owned());
            }
        }
        if member_areas == account.member_areas {
            return Ok(());
        }
        self.store
            .set_member_areas(&account.id, &member_areas)
            .await
    }
}

impl From<AccountWriteError> for JoinError {
    fn from(error: AccountWriteError) -> Self {
        match error {
            AccountWriteError::UnknownAccount => Self::UnknownAccount,
            error => Self::Unavailable(error.into()),
        }
    }
}
