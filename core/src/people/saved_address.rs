//! The shipping address a signed-in site user chose to save at checkout: one per account,
//! the last saved, prefilling their next checkout until they remove it on the account page.

use super::model::AccountId;
use super::service::{PeopleService, Unavailable};
use super::store::AccountWriteError;
use crate::checkout::ShippingAddress;

impl PeopleService {
    /// The account's saved shipping address, if it saved one.
    pub async fn saved_address(
        &self,
        account: &AccountId,
    ) -> Result<Option<ShippingAddress>, Unavailable> {
        Ok(self.store.saved_address(account).await?)
    }

    /// Saves `address` for the account, in place of the one before. An account deleted
    /// meanwhile has nothing to save it for, and that is no failure of the order it came with.
    pub async fn save_address(
        &self,
        account: &AccountId,
        address: &ShippingAddress,
    ) -> Result<(), Unavailable> {
        match self.store.save_address(account, address).await {
            Ok(()) | Err(AccountWriteError::UnknownAccount) => Ok(()),
            Err(error) => Err(error.into()),
        }
    }

    /// Forgets the account's saved address; `false` when there was none.
    pub async fn remove_address(&self, account: &AccountId) -> Result<bool, Unavailable> {
        Ok(self.store.remove_address(account).await?)
    }
}
