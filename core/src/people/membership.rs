//! Joining member areas: a free area is joined in one step by a signed-in site user; a paid
//! one by an order for one of its subscription plans placed with the account's confirmed
//! address (then the membership-confirmed page, type 208, says so).

use super::model::Account;
use super::service::{PeopleService, Unavailable};
use super::store::AccountWriteError;
use crate::site::{ItemId, MemberArea, MemberAreaAccess};

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

impl PeopleService {
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
        self.add_areas(account, [area]).await
    }

    /// Makes `account` a member of every paid area among `areas` that one of the `bought`
    /// products is a plan of; the areas joined (none when the order bought no plan).
    pub async fn join_paid_areas<'a>(
        &self,
        account: &Account,
        areas: &'a [MemberArea],
        bought: &[ItemId],
    ) -> Result<Vec<&'a MemberArea>, JoinError> {
        let joined: Vec<&MemberArea> = areas
            .iter()
            .filter(|area| match &area.access {
                MemberAreaAccess::Paid { plans } => plans.iter().any(|p| bought.contains(p)),
                MemberAreaAccess::Free => false,
            })
            .collect();
        if !joined.is_empty() {
            self.add_areas(account, joined.iter().copied()).await?;
        }
        Ok(joined)
    }

    async fn add_areas(
        &self,
        account: &Account,
        areas: impl IntoIterator<Item = &MemberArea>,
    ) -> Result<(), JoinError> {
        let mut member_areas = account.member_areas.clone();
        for area in areas {
            if !member_areas.iter().any(|known| known == area.id.as_str()) {
                member_areas.push(area.id.as_str().to_owned());
            }
        }
        if member_areas == account.member_areas {
            return Ok(());
        }
        match self
            .store
            .set_member_areas(&account.id, &member_areas)
            .await
        {
            Ok(()) => Ok(()),
            Err(AccountWriteError::UnknownAccount) => Err(JoinError::UnknownAccount),
            Err(error) => Err(Unavailable::from(error).into()),
        }
    }
}
