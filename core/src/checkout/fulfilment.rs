//! The order as the owner's table lists it (issue 18 §3): the order and where it stands after
//! checkout, as its aftercare records say (sent with a tracking link, cancelled, or open).
//! Marking an order sent goes through [`OrderAftercareService`](super::OrderAftercareService),
//! which also mails the shopper, so the table and the command line change the same record.

use super::aftercare::Fulfilment;
use super::order::Order;

/// An order as the owner's table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerOrder {
    /// The order, with its `gift_cards` left empty: the table does not show them, and
    /// reading them would cost the store one more query per row.
    pub order: Order,
    pub fulfilment: Fulfilment,
}
