//! The owner store on both databases: the core's conformance suite, each test on a fresh
//! database.

use std::ops::Deref;
use std::sync::Arc;

use vitrine_core::owners::OwnerStore;

/// An owner store with what must outlive it (the test database).
pub struct OwnerStoreUnderTest<Guard> {
    store: Arc<dyn OwnerStore>,
    _guard: Guard,
}

impl<Guard> Deref for OwnerStoreUnderTest<Guard> {
    type Target = dyn OwnerStore;

    fn deref(&self) -> &Self::Target {
        &*self.store
    }
}

mod sqlite {
    use super::OwnerStoreUnderTest;

    async fn fresh() -> OwnerStoreUnderTest<impl Send + Sync> {
        let store = crate::sqlite::fresh().await;
        OwnerStoreUnderTest {
            store: store.database.owner_store(),
            _guard: store,
        }
    }

    vitrine_core::owner_store_conformance!(fresh().await);
}

mod postgres {
    use super::OwnerStoreUnderTest;

    async fn fresh() -> Option<OwnerStoreUnderTest<impl Send + Sync>> {
        let store = crate::postgres::fresh().await?;
        Some(OwnerStoreUnderTest {
            store: store.database.owner_store(),
            _guard: store,
        })
    }

    vitrine_core::owner_store_conformance!(match fresh().await {
        Some(store) => store,
        None => return,
    });
}
