//! The owner's choices about languages (001 s7): which of the bundle's translations are
//! published, and whether the translation provider was disconnected; and the port keeping them.

use std::sync::Mutex;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::LanguageTag;
use crate::ports::RepositoryError;

/// What the owner chose; the default publishes every translation the bundle carries.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MultilingualChoice {
    /// The published translations; `None` until the owner chooses, meaning all of them.
    pub published: Option<Vec<LanguageTag>>,
    /// The owner disconnected the translation provider the bundle names.
    pub provider_disconnected: bool,
}

/// Where the owner's choice is kept. Like the header and footer, it outlives site imports.
#[async_trait]
pub trait MultilingualStore: Send + Sync {
    /// The choice saved last; `None` before the first.
    async fn choice(&self) -> Result<Option<MultilingualChoice>, RepositoryError>;

    /// Replaces the choice. A store shared by several servers also moves the site revision
    /// on, so every server's page cache renders again.
    async fn save_choice(&self, choice: &MultilingualChoice) -> Result<(), RepositoryError>;
}

/// The choice kept in this process's memory, for tests and single-process use.
#[derive(Debug, Default)]
pub struct MemoryMultilingualStore(Mutex<Option<MultilingualChoice>>);

impl MemoryMultilingualStore {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl MultilingualStore for MemoryMultilingualStore {
    async fn choice(&self) -> Result<Option<MultilingualChoice>, RepositoryError> {
        Ok(self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone())
    }

    async fn save_choice(&self, choice: &MultilingualChoice) -> Result<(), RepositoryError> {
        *self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(choice.clone());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    crate::multilingual_store_conformance!(super::MemoryMultilingualStore::new());
}
