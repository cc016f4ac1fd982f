//! The contribution store on both databases: the core's conformance suite, including two
//! submits of one donation form arriving at once, each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::checkout::{
    Contribution, ContributionStore, IdempotencyKey, RecordContributionError,
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

    async fn contribution(&self, id: &str) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution(id).await
    }

    async fn contribution_by_key(
        &self,
        key: &IdempotencyKey,
    ) -> Result<Option<Contribution>, RepositoryError> {
        self.store.contribution_by_key(key).await
    }

    async fn erase_contributions_of(&self, email: &str) -> Result<u32, RepositoryError> {
        self.store.erase_contributions_of(email).await
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

mod sqlite {
    use super::ContributionStoreUnderTest;

    #[tokio::test]
    async fn a_receipt_is_enqueued_once_with_its_contribution() {
        let store = crate::sqlite::fresh().await;
        super::a_receipt_is_enqueued_once_with_its_contribution(&store.database).await;
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
