//! The owner's calls on an order after checkout: refund (whole or in part, through the
//! payment gateway), cancel before it is sent, and mark it sent with a tracking link. The
//! command line and the owner API call these, one method each; the rules are
//! `aftercare.rs`'s, checked again by the store inside each change's transaction.
//!
//! A refund is recorded as requested before the gateway is asked, so two refunds asked at
//! once can never give back more than was paid; its id is the gateway's idempotency key. An
//! answer that never came leaves it requested (it may have been made): the next refund of the
//! order asks for it again under the same key first, so it is made once.

use std::sync::Arc;

use crate::cart::Timestamp;
use crate::forms::SiteLinks;
use crate::ports::RepositoryError;

use super::aftercare::{
    Aftercare, ChangeOrderError, OrderRefund, RefundError, RefundRequest, RefundState, TrackingUrl,
};
use super::aftercare_mails::{cancellation_mail, refund_mail, shipping_mail};
use super::aftercare_store::{
    ChangeOrderStoreError, OrderAftercareStore, RefundOutcome, RequestRefundError,
};
use super::order::Order;
use super::payment::{PartialRefund, PaymentError, PaymentGateway};

/// Why an owner's call changed nothing (or, for [`AftercareError::Gateway`], recorded a
/// failed refund).
#[derive(Debug, thiserror::Error)]
pub enum AftercareError {
    #[error(transparent)]
    Refund(#[from] RefundError),
    #[error(transparent)]
    Change(#[from] ChangeOrderError),
    /// The payment gateway did not give the money back. A refusal is recorded as a failed
    /// refund; an answer that never came leaves the refund requested, asked again first by
    /// the order's next refund.
    #[error("the payment gateway did not refund: {0}")]
    Gateway(PaymentError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl From<RequestRefundError> for AftercareError {
    fn from(error: RequestRefundError) -> Self {
        match error {
            RequestRefundError::Refused(refusal) => Self::Refund(refusal),
            RequestRefundError::Repository(error) => Self::Repository(error),
        }
    }
}

impl From<ChangeOrderStoreError> for AftercareError {
    fn from(error: ChangeOrderStoreError) -> Self {
        match error {
            ChangeOrderStoreError::Refused(refusal) => Self::Change(refusal),
            ChangeOrderStoreError::Repository(error) => Self::Repository(error),
        }
    }
}

/// An order with its state after checkout and what is left to refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSummary {
    pub order: Order,
    pub aftercare: Aftercare,
    pub refundable_cents: i64,
}

/// Refunds, cancellation and fulfilment of orders.
pub struct OrderAftercareService {
    store: Arc<dyn OrderAftercareStore>,
    payments: Arc<dyn PaymentGateway>,
    links: SiteLinks,
}

impl OrderAftercareService {
    /// `links` makes the order links of the mails (signed when it has a key).
    pub fn new(
        store: Arc<dyn OrderAftercareStore>,
        payments: Arc<dyn PaymentGateway>,
        links: SiteLinks,
    ) -> Self {
        Self {
            store,
            payments,
            links,
        }
    }

    /// The order `order_id` with its refunds and fulfilment.
    pub async fn summary(&self, order_id: &str) -> Result<OrderSummary, AftercareError> {
        let (order, aftercare) = self
            .store
            .order_aftercare(order_id)
            .await?
            .ok_or_else(|| RefundError::UnknownOrder(order_id.to_owned()))?;
        let refundable_cents = aftercare.refundable_cents(&order)?;
        Ok(OrderSummary {
            order,
            aftercare,
            refundable_cents,
        })
    }

    /// Refunds what `request` asks of the order through the payment gateway; its units go
    /// back to stock and the shopper is mailed once the gateway gave the money back.
    pub async fn refund(
        &self,
        order_id: &str,
        request: &RefundRequest,
        now: Timestamp,
    ) -> Result<OrderRefund, AftercareError> {
        self.resume_requested(order_id, now).await?;
        let refund = self.store.request_refund(order_id, request, now).await?;
        let summary = self.summary(order_id).await?;
        self.ask_gateway(&summary.order, refund, true, now).await
    }

    /// Cancels an order that was not sent: what is left of its charge is refunded, every
    /// unit not refunded goes back to stock, and the shopper is mailed. Answers the amount
    /// given back.
    pub async fn cancel(&self, order_id: &str, now: Timestamp) -> Result<i64, AftercareError> {
        let summary = self.summary(order_id).await?;
        summary.aftercare.check_cancel(&summary.order)?;
        self.resume_requested(order_id, now).await?;
        let summary = self.summary(order_id).await?;
        let refunded = if summary.refundable_cents > 0 {
            let refund = self
                .store
                .request_refund(order_id, &RefundRequest::everything(), now)
                .await?;
            // The refund of everything left restocks every unit left, so the cancellation
            // itself restocks none.
            self.ask_gateway(&summary.order, refund, false, now)
                .await?
                .amount_cents
        } else {
            0
        };
        let mail = cancellation_mail(&summary.order, refunded, &self.links, now);
        self.store.cancel_order(order_id, now, &mail).await?;
        Ok(refunded)
    }

    /// Marks a paid, open order sent and mails the shopper its tracking link.
    pub async fn fulfil(
        &self,
        order_id: &str,
        tracking_url: &TrackingUrl,
        now: Timestamp,
    ) -> Result<(), AftercareError> {
        let summary = self.summary(order_id).await?;
        summary.aftercare.check_fulfil(&summary.order)?;
        let mail = shipping_mail(&summary.order, tracking_url, &self.links, now);
        self.store
            .fulfil_order(order_id, tracking_url, now, &mail)
            .await?;
        Ok(())
    }

    /// Asks the gateway again, under their own keys, for the order's refunds whose answer
    /// never came.
    async fn resume_requested(&self, order_id: &str, now: Timestamp) -> Result<(), AftercareError> {
        let summary = self.summary(order_id).await?;
        for refund in summary.aftercare.refunds {
            if refund.state == RefundState::Requested {
                self.ask_gateway(&summary.order, refund, true, now).await?;
            }
        }
        Ok(())
    }

    /// Gives back `refund` through the gateway and records the answer.
    async fn ask_gateway(
        &self,
        order: &Order,
        refund: OrderRefund,
        mail_shopper: bool,
        now: Timestamp,
    ) -> Result<OrderRefund, AftercareError> {
        let asked = self
            .payments
            .refund_part(&PartialRefund {
                payment_id: order.payment_id.clone(),
                amount_minor: refund.amount_cents,
                currency: order.currency,
                key: refund.id.clone(),
            })
            .await;
        match asked {
            Ok(gateway_refund_id) => {
                let refund = OrderRefund {
                    state: RefundState::Refunded,
                    gateway_refund_id,
                    ..refund
                };
                let mail = mail_shopper.then(|| refund_mail(order, &refund, &self.links, now));
                self.store
                    .settle_refund(
                        &refund.id,
                        &RefundOutcome::Refunded {
                            gateway_refund_id: refund.gateway_refund_id.clone(),
                            mail,
                        },
                        now,
                    )
                    .await?;
                Ok(refund)
            }
            Err(error @ PaymentError::OutcomeUnknown(_)) => {
                tracing::warn!(refund = refund.id, %error, "a refund's outcome is not known; it is asked again first by the order's next refund");
                Err(AftercareError::Gateway(error))
            }
            Err(error) => {
                tracing::warn!(refund = refund.id, %error, "the payment gateway refused a refund");
                self.store
                    .settle_refund(
                        &refund.id,
                        &RefundOutcome::Failed {
                            reason: error.to_string(),
                        },
                        now,
                    )
                    .await?;
                Err(AftercareError::Gateway(error))
            }
        }
    }
}
