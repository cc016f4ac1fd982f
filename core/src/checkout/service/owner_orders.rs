//! The owner's table of orders on the cart service: a page of orders, each with where it
//! stands after checkout. Refunds and marking an order sent go through
//! [`OrderAftercareService`](crate::checkout::OrderAftercareService), as on the command line.

use super::CartService;
use crate::checkout::fulfilment::OwnerOrder;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

impl CartService {
    /// The owner's table of orders: newest first, searched in the order id and address.
    pub async fn owner_orders(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<OwnerOrder>, RepositoryError> {
        self.store.order_page(query).await
    }
}
