//! Consent receipts: a server-side record of each decision (id, banner version, choice, time,
//! source) that the owner can export. Beyond the spec; the port keeps the core free of I/O.

use std::sync::Mutex;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use super::behaviour::{ConsentChoice, ConsentSource};
use crate::owners::tables::{TablePage, TableQuery};

/// A receipt's id: 1 to 64 ASCII letters, digits or dashes (a UUID in practice), so it can be
/// shown to a visitor and quoted back without escaping.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ReceiptId(String);

/// Why a receipt id was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a receipt id is 1 to 64 ASCII letters, digits or dashes")]
pub struct InvalidReceiptId;

impl ReceiptId {
    pub fn new(id: impl Into<String>) -> Result<Self, InvalidReceiptId> {
        let id = id.into();
        if crate::site::is_opaque_token(&id) {
            Ok(Self(id))
        } else {
            Err(InvalidReceiptId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for ReceiptId {
    type Error = InvalidReceiptId;
    fn try_from(id: String) -> Result<Self, Self::Error> {
        Self::new(id)
    }
}

impl From<ReceiptId> for String {
    fn from(id: ReceiptId) -> Self {
        id.0
    }
}

/// One recorded decision. `recorded_at_ms` is milliseconds since the Unix epoch, given by the
/// caller's clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConsentReceipt {
    pub id: ReceiptId,
    pub banner_version: u32,
    pub choice: ConsentChoice,
    pub source: ConsentSource,
    pub recorded_at_ms: i64,
}

/// Why a receipt could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum RecordReceiptError {
    #[error("a receipt with this id already exists")]
    Duplicate,
    #[error("the receipt store is unavailable: {0}")]
    Unavailable(String),
}

/// Where receipts are kept.
#[async_trait]
pub trait ConsentReceiptStore: Send + Sync {
    async fn record(&self, receipt: &ConsentReceipt) -> Result<(), RecordReceiptError>;

    /// Every receipt, oldest first (ties by id).
    async fn all(&self) -> Result<Vec<ConsentReceipt>, RecordReceiptError>;

    /// The owner's table: the page `query` asks for of the receipts whose id, choice or
    /// source contains its search, newest first (ties by id, later first), with how many
    /// match in all.
    async fn receipt_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<ConsentReceipt>, RecordReceiptError>;
}

/// A [`ConsentReceiptStore`] in memory.
#[derive(Debug, Default)]
pub struct MemoryConsentReceiptStore {
    receipts: Mutex<Vec<ConsentReceipt>>,
}

impl MemoryConsentReceiptStore {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl ConsentReceiptStore for MemoryConsentReceiptStore {
    async fn record(&self, receipt: &ConsentReceipt) -> Result<(), RecordReceiptError> {
        let mut receipts = self
            .receipts
            .lock()
            .map_err(|_| RecordReceiptError::Unavailable("a writer panicked".into()))?;
        if receipts.iter().any(|stored| stored.id == receipt.id) {
            return Err(RecordReceiptError::Duplicate);
        }
        receipts.push(receipt.clone());
        Ok(())
    }

    async fn all(&self) -> Result<Vec<ConsentReceipt>, RecordReceiptError> {
        let mut receipts = self
            .receipts
            .lock()
            .map_err(|_| RecordReceiptError::Unavailable("a writer panicked".into()))?
            .clone();
        receipts.sort_by(|a, b| (a.recorded_at_ms, &a.id).cmp(&(b.recorded_at_ms, &b.id)));
        Ok(receipts)
    }

    async fn receipt_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<ConsentReceipt>, RecordReceiptError> {
        let mut matching: Vec<ConsentReceipt> = self
            .receipts
            .lock()
            .map_err(|_| RecordReceiptError::Unavailable("a writer panicked".into()))?
            .iter()
            .filter(|r| query.matches(&[r.id.as_str(), r.choice.wire(), r.source.wire()]))
            .cloned()
            .collect();
        matching.sort_by(|a, b| (b.recorded_at_ms, &b.id).cmp(&(a.recorded_at_ms, &a.id)));
        Ok(query.cut(matching))
    }
}

/// Receipts as CSV for the owner's export: a header line, then one line per receipt. No field
/// can hold a comma or quote (ids are checked, the rest are fixed words and numbers), so no
/// quoting is needed.
pub fn receipts_csv(receipts: &[ConsentReceipt]) -> String {
    let mut out = String::from("id,bannerVersion,choice,source,recordedAtMs\n");
    for receipt in receipts {
        out.push_str(&format!(
            "{},{},{},{},{}\n",
            receipt.id.as_str(),
            receipt.banner_version,
            receipt.choice.wire(),
            receipt.source.wire(),
            receipt.recorded_at_ms
        ));
    }
    out
}
