//! The owner's table of orders on the cart service: a page of orders with their fulfilment,
//! marking one fulfilled, and refunding one in full through the payment gateway.

use super::CartService;
use crate::cart::Timestamp;
use crate::checkout::fulfilment::{Fulfilment, InvalidTrackingUrl, OwnerOrder, TrackingUrl};
use crate::checkout::payment::{Payment, PaymentError};
use crate::checkout::payment_events::{PaymentEvent, PaymentOutcome, PaymentStatus};
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// Why the owner's change to an order was refused.
#[derive(Debug, thiserror::Error)]
pub enum OwnerOrderError {
    #[error("No order has this id.")]
    UnknownOrder,
    #[error(transparent)]
    InvalidTrackingUrl(#[from] InvalidTrackingUrl),
    /// Only a paid order with a charge can be refunded: nothing was charged, the charge is
    /// still pending or failed, or it was refunded or disputed already.
    #[error("This order has no payment that can be refunded.")]
    NotRefundable,
    /// The payment gateway refused or could not be asked; nothing changed.
    #[error("The refund did not go through: {0}")]
    Refund(PaymentError),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

impl CartService {
    /// The owner's table of orders: newest first, searched in the order id and address.
    pub async fn owner_orders(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<OwnerOrder>, RepositoryError> {
        self.store.order_page(query).await
    }

    /// Marks the order fulfilled at `now`, with the tracking link typed (blank for none).
    /// Marking it again replaces the link and the time.
    pub async fn fulfil_order(
        &self,
        order_id: &str,
        tracking_url: &str,
        now: Timestamp,
    ) -> Result<(), OwnerOrderError> {
        let fulfilment = Fulfilment {
            fulfilled_at: now,
            tracking_url: TrackingUrl::parse_optional(tracking_url)?,
        };
        if self.store.mark_fulfilled(order_id, &fulfilment).await? {
            Ok(())
        } else {
            Err(OwnerOrderError::UnknownOrder)
        }
    }

    /// Gives the order's charge back in full through the payment gateway, then records the
    /// refund as the provider's own report of it would be recorded
    /// ([`PaymentEventLog::reconcile_payment`](crate::checkout::PaymentEventLog)): the
    /// order's status moves to refunded once, even when the provider's report arrives too.
    pub async fn refund_order(
        &self,
        order_id: &str,
        now: Timestamp,
    ) -> Result<PaymentStatus, OwnerOrderError> {
        let order = self
            .store
            .order(order_id)
            .await?
            .ok_or(OwnerOrderError::UnknownOrder)?;
        if order.payment_status != PaymentStatus::Paid || order.payment_id.is_empty() {
            return Err(OwnerOrderError::NotRefundable);
        }
        let payment = Payment {
            id: order.payment_id.clone(),
            amount_minor: order.rest_due_cents(),
            currency: order.currency,
        };
        self.payments
            .refund(&payment)
            .await
            .map_err(OwnerOrderError::Refund)?;
        let event = PaymentEvent {
            id: format!("owner-refund-{}", order.id),
            payment_id: order.payment_id.clone(),
            payment_key: None,
            outcome: PaymentOutcome::Refunded,
        };
        self.store.reconcile_payment(&event, now).await?;
        Ok(PaymentStatus::Refunded)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cart::{CartState, CartToken, StoreRules};
    use crate::checkout::{CommerceStore, InMemoryCommerceStore, TestPaymentGateway};
    use crate::ports::memory::MemorySiteRepository;
    use crate::reviews::conformance::fixture_order;

    /// A service over a store holding `order-1`, paid with the charge `pay_1`, and `order-2`,
    /// for which nothing was charged.
    async fn service() -> (CartService, Arc<TestPaymentGateway>) {
        let store = Arc::new(InMemoryCommerceStore::new());
        for (n, payment_id) in [(1, "pay_1"), (2, "")] {
            let mut order = fixture_order(&format!("order-{n}"));
            order.cart_token = CartToken::parse(format!("cart-token-000000000{n}")).unwrap();
            order.payment_id = payment_id.into();
            let cart = CartState::new("cart", "site", Timestamp(0));
            store.save_cart(&order.cart_token, &cart).await.unwrap();
            store.place_order(&order, &[]).await.unwrap();
        }
        let payments = Arc::new(TestPaymentGateway::new());
        let service = CartService::new(
            Arc::new(MemorySiteRepository::new()),
            store,
            StoreRules::default(),
        )
        .with_payments(payments.clone());
        (service, payments)
    }

    #[tokio::test]
    async fn a_refund_gives_the_charge_back_once_and_marks_the_order_refunded() {
        let (service, payments) = service().await;
        assert_eq!(
            service.refund_order("order-1", Timestamp(5)).await.unwrap(),
            PaymentStatus::Refunded
        );
        assert_eq!(payments.refunded(), ["pay_1"]);
        let order = service.store.order("order-1").await.unwrap().unwrap();
        assert_eq!(order.payment_status, PaymentStatus::Refunded);
        assert!(matches!(
            service.refund_order("order-1", Timestamp(6)).await,
            Err(OwnerOrderError::NotRefundable)
        ));
        assert!(matches!(
            service.refund_order("order-2", Timestamp(6)).await,
            Err(OwnerOrderError::NotRefundable)
        ));
        assert!(matches!(
            service.refund_order("order-404", Timestamp(6)).await,
            Err(OwnerOrderError::UnknownOrder)
        ));
        assert_eq!(payments.refunded(), ["pay_1"], "nothing else was refunded");
    }

    #[tokio::test]
    async fn fulfilling_checks_the_tracking_link_and_the_order() {
        let (service, _) = service().await;
        assert!(matches!(
            service
                .fulfil_order("order-1", "javascript:alert(1)", Timestamp(7))
                .await,
            Err(OwnerOrderError::InvalidTrackingUrl(_))
        ));
        assert!(matches!(
            service.fulfil_order("order-404", "", Timestamp(7)).await,
            Err(OwnerOrderError::UnknownOrder)
        ));
        service
            .fulfil_order("order-1", " https://track.example/1 ", Timestamp(7))
            .await
            .unwrap();
        let page = service
            .owner_orders(&TableQuery::page(Some("order-1"), 1).unwrap())
            .await
            .unwrap();
        let fulfilment = page.rows[0].fulfilment.clone().unwrap();
        assert_eq!(fulfilment.fulfilled_at, Timestamp(7));
        assert_eq!(
            fulfilment.tracking_url.map(|url| url.as_str().to_owned()),
            Some("https://track.example/1".to_owned())
        );
    }
}
