//! The port of orders after checkout: an order's refunds and fulfilment, each change written
//! in one transaction with the stock it gives back and the mail it sends (through the
//! delivery outbox), and every rule of `aftercare.rs` checked again inside that transaction,
//! so two owners acting at once can never refund more than was paid, nor both cancel and
//! send one order.

use async_trait::async_trait;

use super::aftercare::{
    Aftercare, ChangeOrderError, OrderRefund, RefundError, RefundRequest, TrackingUrl,
};
use super::order::Order;
use crate::cart::Timestamp;
use crate::forms::Mail;
use crate::ports::RepositoryError;

/// The payment gateway's answer to a refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefundOutcome {
    /// The money went back: the refund's units return to stock and `mail` is sent (none
    /// when a cancellation's own mail tells of it).
    Refunded {
        gateway_refund_id: String,
        mail: Option<Mail>,
    },
    /// The gateway refused: the refund counts for nothing.
    Failed { reason: String },
}

/// Why a refund could not be recorded.
#[derive(Debug, thiserror::Error)]
pub enum RequestRefundError {
    #[error(transparent)]
    Refused(#[from] RefundError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Why an order could not be cancelled or marked sent.
#[derive(Debug, thiserror::Error)]
pub enum ChangeOrderStoreError {
    #[error(transparent)]
    Refused(#[from] ChangeOrderError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

/// Where orders' refunds and fulfilment live: beside the orders and the stock, since a refund
/// or a cancellation puts units back.
#[async_trait]
pub trait OrderAftercareStore: Send + Sync {
    /// The order with its state after checkout; none for an unknown id.
    async fn order_aftercare(
        &self,
        order_id: &str,
    ) -> Result<Option<(Order, Aftercare)>, RepositoryError>;

    /// Records the refund `request` asks of the order, as requested, with the next sequence
    /// number; the rules ([`Aftercare::plan_refund`]) are checked against the refunds
    /// recorded at that moment.
    async fn request_refund(
        &self,
        order_id: &str,
        request: &RefundRequest,
        now: Timestamp,
    ) -> Result<OrderRefund, RequestRefundError>;

    /// Records the gateway's answer to a requested refund; a refund already settled is left
    /// as it is (the answer recorded twice after a retry changes nothing).
    async fn settle_refund(
        &self,
        refund_id: &str,
        outcome: &RefundOutcome,
        now: Timestamp,
    ) -> Result<(), RepositoryError>;

    /// Cancels an open order: every unit not refunded goes back to stock and `mail` is sent.
    async fn cancel_order(
        &self,
        order_id: &str,
        now: Timestamp,
        mail: &Mail,
    ) -> Result<(), ChangeOrderStoreError>;

    /// Marks an open, paid order sent with `tracking_url`, and sends `mail`.
    async fn fulfil_order(
        &self,
        order_id: &str,
        tracking_url: &TrackingUrl,
        now: Timestamp,
        mail: &Mail,
    ) -> Result<(), ChangeOrderStoreError>;
}
