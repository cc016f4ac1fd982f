//! The in-memory [`OrderAftercareStore`]: refunds and fulfilment beside the orders and stock
//! of the in-memory commerce store, behind its one mutex, and the mails each change sends
//! kept in order for tests to read (there is no in-memory outbox worker).

use async_trait::async_trait;

use super::{InMemoryCommerceStore, Inner};
use crate::cart::{Stock, Timestamp};
use crate::checkout::aftercare::{
    Aftercare, ChangeOrderError, Fulfilment, OrderRefund, RefundError, RefundLine, RefundRequest,
    RefundState, TrackingUrl,
};
use crate::checkout::aftercare_store::{
    ChangeOrderStoreError, OrderAftercareStore, RefundOutcome, RequestRefundError,
};
use crate::checkout::order::Order;
use crate::forms::Mail;
use crate::ports::RepositoryError;

impl Inner {
    fn aftercare_of(&self, order_id: &str) -> Option<(Order, Aftercare)> {
        let order = self.orders.iter().find(|order| order.id == order_id)?;
        let care = self.aftercare.get(order_id).cloned().unwrap_or_default();
        Some((self.read_order(order), care))
    }

    /// Puts `lines` back into the stock of SKUs counted as limited.
    pub(super) fn restock(&mut self, lines: &[RefundLine]) {
        for line in lines {
            if let Some(Stock::Limited(quantity)) = self.stock.get_mut(&line.sku) {
                *quantity = quantity.saturating_add(line.quantity);
            }
        }
    }
}

impl InMemoryCommerceStore {
    /// The mails refunds, cancellations and fulfilment sent, oldest first.
    pub fn aftercare_mails(&self) -> Vec<Mail> {
        self.lock().aftercare_mails.clone()
    }
}

impl InMemoryCommerceStore {
    /// Moves an open order to `fulfilment` when `check` allows it, restocking what a
    /// cancellation puts back, and keeps `mail`.
    fn change(
        &self,
        order_id: &str,
        check: fn(&Aftercare, &Order) -> Result<(), ChangeOrderError>,
        fulfilment: Fulfilment,
        mail: &Mail,
    ) -> Result<(), ChangeOrderStoreError> {
        let mut inner = self.lock();
        let (order, care) = inner
            .aftercare_of(order_id)
            .ok_or_else(|| ChangeOrderError::UnknownOrder(order_id.to_owned()))?;
        check(&care, &order)?;
        if matches!(fulfilment, Fulfilment::Cancelled { .. }) {
            inner.restock(&care.cancel_restock(&order));
        }
        inner
            .aftercare
            .entry(order_id.to_owned())
            .or_default()
            .fulfilment = fulfilment;
        inner.aftercare_mails.push(mail.clone());
        Ok(())
    }
}

#[async_trait]
impl OrderAftercareStore for InMemoryCommerceStore {
    async fn order_aftercare(
        &self,
        order_id: &str,
    ) -> Result<Option<(Order, Aftercare)>, RepositoryError> {
        Ok(self.lock().aftercare_of(order_id))
    }

    async fn request_refund(
        &self,
        order_id: &str,
        request: &RefundRequest,
        now: Timestamp,
    ) -> Result<OrderRefund, RequestRefundError> {
        let mut inner = self.lock();
        let (order, care) = inner
            .aftercare_of(order_id)
            .ok_or_else(|| RefundError::UnknownOrder(order_id.to_owned()))?;
        let plan = care.plan_refund(&order, request)?;
        let refund = OrderRefund::requested(order_id, care.next_sequence(), plan, now);
        inner
            .aftercare
            .entry(order_id.to_owned())
            .or_default()
            .refunds
            .push(refund.clone());
        Ok(refund)
    }

    async fn settle_refund(
        &self,
        refund_id: &str,
        outcome: &RefundOutcome,
        _now: Timestamp,
    ) -> Result<(), RepositoryError> {
        let mut inner = self.lock();
        let Some(refund) = inner
            .aftercare
            .values_mut()
            .flat_map(|care| care.refunds.iter_mut())
            .find(|refund| refund.id == refund_id)
        else {
            return Err(RepositoryError::Rejected(format!("no refund {refund_id}")));
        };
        if refund.state != RefundState::Requested {
            return Ok(());
        }
        match outcome {
            RefundOutcome::Refunded {
                gateway_refund_id,
                mail,
            } => {
                refund.state = RefundState::Refunded;
                refund.gateway_refund_id = gateway_refund_id.clone();
                let lines = refund.lines.clone();
                inner.restock(&lines);
                inner.aftercare_mails.extend(mail.iter().cloned());
            }
            RefundOutcome::Failed { reason } => {
                refund.state = RefundState::Failed;
                refund.reason = reason.clone();
            }
        }
        Ok(())
    }

    async fn cancel_order(
        &self,
        order_id: &str,
        now: Timestamp,
        mail: &Mail,
    ) -> Result<(), ChangeOrderStoreError> {
        self.change(
            order_id,
            Aftercare::check_cancel,
            Fulfilment::Cancelled { at: now },
            mail,
        )
    }

    async fn fulfil_order(
        &self,
        order_id: &str,
        tracking_url: &TrackingUrl,
        now: Timestamp,
        mail: &Mail,
    ) -> Result<(), ChangeOrderStoreError> {
        let sent = Fulfilment::Fulfilled {
            tracking_url: tracking_url.clone(),
            at: now,
        };
        self.change(order_id, Aftercare::check_fulfil, sent, mail)
    }
}
