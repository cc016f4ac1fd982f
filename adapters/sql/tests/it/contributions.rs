//! The contribution store on both databases: the core's conformance suite, including two
//! submits of one donation form arriving at once, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{
    Contribution, ContributionSettlement, ContributionStore, IdempotencyKey, PlacedBetween,
    RecordContributionError,
};
use vitrine_core::ports::RepositoryError;

/// A contribution store with what must outlive it (the test database).
pub struct ContributionStoreUnderTest<Guard> {
    store: Arc<dyn ContributionStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> ContributionStore for ContributionStoreUnderTest<Guard> {
    async fn record_with_receipt(
        &self,
        contribution: &Contribution,
        receipt: Option<&vitrine_core::forms::Mail>,
    ) -> Result<Contribution, RecordContributionError> {
        self.store.record_with_receipt(contribution, receipt).await
    }

    async fn open_pending(
        &self,
        contribution: &Contribution,
    ) -> Result<Contribution, RepositoryError> {
        self.store.open_pending(contribution).await
    }

    async fn settle(
        &self,
        id: &str,
        settlement: &ContributionSettlement,
        receipt: Option<&vitrine_core::forms::Mail>,
        now: Timestamp,
    ) -> Result<Option<(Contribution, bool)>, RecordContributionError> {
        self.store.settle(id, settlement, receipt, now).await
    }

    async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution(id).await
    }

    async fn pending_contributions_opened_before(
        &self,
        before: Timestamp,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError> {
        self.store
            .pending_contributions_opened_before(before, limit)
            .await
    }

    async fn contribution_by_key(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution_by_key(key).await
    }

    async fn contributions_made_between(
        &self,
        email: &str,
        made: PlacedBetween,
        limit: u32,
    ) -> Result<Vec<Contribution>, RepositoryError> {
        self.store
            .contributions_made_between(email, made, limit)
            .await
    }

    async fn erase_contributions_of(
        &self,
        email: &str,
        made: PlacedBetween,
    ) -> Result<u32, RepositoryError> {
        self.store.erase_contributions_of(email, made).await
    }
}

crate::ledger::ledger_through_store!(ContributionStoreUnderTest);

/// A contribution's receipt is enqueued with it, once, however often the form is sent.
async fn a_receipt_is_enqueued_once_with_its_contribution(database: &vitrine_sql::Database) {
    use vitrine_core::checkout::contribution_conformance::contribution;
    use vitrine_core::checkout::{Organisation, contribution_receipt_mail};
    use vitrine_core::forms::{DeliveryKind, DeliverySubject};
    let store = database.contribution_store();
    let outbox = database.delivery_outbox();
    let contribution = contribution("contribution-receipt", "receipt", 2_500);
    let organisation = Organisation {
        name: "Kiln Society".into(),
        address: None,
    };
    let receipt = contribution_receipt_mail(&contribution, &organisation);
    for _ in 0..2 {
        store
            .record_with_receipt(&contribution, Some(&receipt))
            .await
            .unwrap();
    }
    let deliveries = outbox.deliveries().await.unwrap();
    assert_eq!(deliveries.len(), 1, "{deliveries:?}");
    assert_eq!(deliveries[0].kind, DeliveryKind::SiteUserMail);
    let due = outbox
        .claim_due(contribution.created.millis(), 1_000, 10)
        .await
        .unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].subject, DeliverySubject::Mail(receipt));
}

/// A pending contribution's receipt is enqueued when its payment succeeds, once, however
/// often the provider says so; a failed one mails nothing.
async fn a_receipt_is_enqueued_once_when_a_pending_contribution_is_paid(
    database: &vitrine_sql::Database,
) {
    use vitrine_core::checkout::contribution_conformance::pending;
    use vitrine_core::checkout::{Organisation, Payment, contribution_receipt_mail};
    let store = database.contribution_store();
    let outbox = database.delivery_outbox();
    let organisation = Organisation {
        name: "Kiln Society".into(),
        address: None,
    };
    let paid = pending("gift-paid", "paid");
    let failed = pending("gift-failed", "failed");
    for given in [&paid, &failed] {
        store.open_pending(given).await.unwrap();
    }
    let receipt = contribution_receipt_mail(&paid, &organisation);
    let payment = ContributionSettlement::Paid(Payment {
        id: "ch_paid".into(),
        amount_minor: paid.amount_minor,
        currency: paid.currency,
    });
    let declined = ContributionSettlement::Failed {
        message: "Your card was declined.".into(),
    };
    for _ in 0..2 {
        store
            .settle(&paid.id, &payment, Some(&receipt), paid.created)
            .await
            .unwrap();
        store
            .settle(&failed.id, &declined, Some(&receipt), failed.created)
            .await
            .unwrap();
    }
    let deliveries = outbox.deliveries().await.unwrap();
    assert_eq!(deliveries.len(), 1, "{deliveries:?}");
}

mod sqlite {
    use super::ContributionStoreUnderTest;

    #[tokio::test]
    async fn a_receipt_is_enqueued_once_with_its_contribution() {
        let store = crate::sqlite::fresh().await;
        super::a_receipt_is_enqueued_once_with_its_contribution(&store.database).await;
    }

    #[tokio::test]
    async fn a_receipt_is_enqueued_once_when_a_pending_contribution_is_paid() {
        let store = crate::sqlite::fresh().await;
        super::a_receipt_is_enqueued_once_when_a_pending_contribution_is_paid(&store.database)
            .await;
    }

    async fn fresh() -> ContributionStoreUnderTest<impl Send + Sync + 'static> {
        let store = crate::sqlite::fresh().await;
        ContributionStoreUnderTest {
            store: store.database.contribution_store(),
            _guard: store,
        }
    }

    vitrine_core::contribution_store_conformance!(fresh().await);
}

mod postgres {
    use super::ContributionStoreUnderTest;

    #[tokio::test]
    async fn a_receipt_is_enqueued_once_with_its_contribution() {
        let Some(store) = crate::postgres::fresh().await else {
            return;
        };
        super::a_receipt_is_enqueued_once_with_its_contribution(&store.database).await;
    }

    #[tokio::test]
    async fn a_receipt_is_enqueued_once_when_a_pending_contribution_is_paid() {
        let Some(store) = crate::postgres::fresh().await else {
            return;
        };
        super::a_receipt_is_enqueued_once_when_a_pending_contribution_is_paid(&store.database)
            .await;
    }

    async fn fresh() -> Option<ContributionStoreUnderTest<impl Send + Sync + 'static>> {
        let store = crate::postgres::fresh().await?;
        Some(ContributionStoreUnderTest {
            store: store.database.contribution_store(),
            _guard: store,
        })
    }

    vitrine_core::contribution_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
