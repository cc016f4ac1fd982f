//! The header and footer kept in this process's memory, for tests and single-process use.

use std::sync::Mutex;

use async_trait::async_trait;

use super::{HeaderFooter, HeaderFooterStore};
use crate::ports::RepositoryError;

#[derive(Debug, Default)]
pub struct MemoryHeaderFooterStore(Mutex<Option<HeaderFooter>>);

impl MemoryHeaderFooterStore {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl HeaderFooterStore for MemoryHeaderFooterStore {
    async fn header_footer(&self) -> Result<Option<HeaderFooter>, RepositoryError> {
        Ok(self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone())
    }

    async fn replace_header_footer(&self, value: &HeaderFooter) -> Result<(), RepositoryError> {
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(value.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    crate::header_footer_store_conformance!(super::MemoryHeaderFooterStore::new());
}
