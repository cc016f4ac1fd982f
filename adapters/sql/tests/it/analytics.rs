//! The analytics and consent receipt stores on both databases: the core's conformance suites,
//! each test on a fresh database.

use std::sync::Arc;

use async_trait::async_trait;
use vitrine_core::analytics::{
    AnalyticsStore, DailyTotal, DailyViews, DayRange, ExposureCount, KeyCount, Percentile,
    ReportKey, StoredHit,
};
use vitrine_core::consent::{ConsentReceipt, ConsentReceiptStore, RecordReceiptError};
use vitrine_core::ports::RepositoryError;

/// The two stores of one test database, with what must outlive them.
pub struct StoresUnderTest<Guard> {
    analytics: Arc<dyn AnalyticsStore>,
    receipts: Arc<dyn ConsentReceiptStore>,
    _guard: Guard,
}

#[async_trait]
impl<Guard: Send + Sync> AnalyticsStore for StoresUnderTest<Guard> {
    async fn record_batch(&self, rows: &[StoredHit]) -> Result<(), RepositoryError> {
        self.analytics.record_batch(rows).await
    }

    async fn daily_page_views(&self, range: DayRange) -> Result<Vec<DailyViews>, RepositoryError> {
        self.analytics.daily_page_views(range).await
    }

    async fn daily_totals(
        &self,
        kind: &str,
        range: DayRange,
    ) -> Result<Vec<DailyTotal>, RepositoryError> {
        self.analytics.daily_totals(kind, range).await
    }

    async fn top(
        &self,
        kind: &str,
        key: ReportKey,
        limit: u32,
        range: DayRange,
    ) -> Result<Vec<KeyCount>, RepositoryError> {
        self.analytics.top(kind, key, limit, range).await
    }

    async fn exposure_counts(&self) -> Result<Vec<ExposureCount>, RepositoryError> {
        self.analytics.exposure_counts().await
    }

    async fn percentile(
        &self,
        kind: &str,
        subject: &str,
        page: Option<&str>,
        per_mille: u32,
        range: DayRange,
    ) -> Result<Option<Percentile>, RepositoryError> {
        self.analytics
            .percentile(kind, subject, page, per_mille, range)
            .await
    }
}

#[async_trait]
impl<Guard: Send + Sync> ConsentReceiptStore for StoresUnderTest<Guard> {
    async fn record(&self, receipt: &ConsentReceipt) -> Result<(), RecordReceiptError> {
        self.receipts.record(receipt).await
    }

    async fn all(&self) -> Result<Vec<ConsentReceipt>, RecordReceiptError> {
        self.receipts.all().await
    }

    async fn receipt_page(
        &self,
        query: &vitrine_core::owners::tables::TableQuery,
    ) -> Result<vitrine_core::owners::tables::TablePage<ConsentReceipt>, RecordReceiptError> {
        self.receipts.receipt_page(query).await
    }
}

mod sqlite {
    use super::StoresUnderTest;

    async fn fresh() -> StoresUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        StoresUnderTest {
            analytics: store.database.analytics_store(),
            receipts: store.database.consent_receipt_store(),
            _guard: store,
        }
    }

    vitrine_core::analytics_store_conformance!(fresh().await);

    mod receipts {
        use super::fresh;
        vitrine_core::consent_receipt_store_conformance!(fresh().await);
    }
}

mod postgres {
    use super::StoresUnderTest;

    async fn fresh() -> Option<StoresUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(StoresUnderTest {
            analytics: store.database.analytics_store(),
            receipts: store.database.consent_receipt_store(),
            _guard: store,
        })
    }

    vitrine_core::analytics_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });

    mod receipts {
        use super::fresh;
        vitrine_core::consent_receipt_store_conformance!(match fresh().await {
            Some(store) => store,
            None => return,
        });
    }
}
