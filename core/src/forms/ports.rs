//! The ports of the form flow: the key store (which issues keys and says whether one is live),
//! the submission store (which consumes a key and stores its submission in one transaction),
//! the rate limiter and the captcha verifier. Keys and limits may live in a store shared by
//! several servers (Redis); consumption always lives with the submissions, so a key is
//! consumed exactly once wherever it was issued.

use async_trait::async_trait;

use super::submission::{NewSubmission, StoredSubmission, SubmissionKey};
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// Issues one-time keys.
#[async_trait]
pub trait SubmissionKeyStore: Send + Sync {
    /// Records `key` as usable until `expires_at` (Unix seconds).
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError>;

    /// Whether `key` was issued and has not expired at `now` (Unix seconds). Whether it was
    /// consumed is the submission store's record, not the key store's.
    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError>;
}

/// What saving a submission under a key did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveOutcome {
    /// The key was consumed and the submission stored (or, for a newsletter address already
    /// subscribed to the list, the existing subscription's id is returned and nothing new is
    /// stored).
    Stored { id: i64 },
    /// The key had already been consumed by a submission with the same fingerprint: nothing
    /// new is stored and the first answer is repeated.
    Replayed { id: i64 },
    /// The key was consumed by a different submission.
    KeyReused,
    /// The key was never issued, or expired unused.
    KeyUnknown,
}

/// Durable storage of submissions.
#[async_trait]
pub trait SubmissionStore: Send + Sync {
    /// Consumes `key`, which the caller found live, and stores `submission` atomically:
    /// either both happen or neither, and a key is consumed at most once however many saves
    /// race for it (on every server sharing the store). A key consumed before answers
    /// `Replayed` or `KeyReused`, never `KeyUnknown`. Returns only once the write is durable.
    async fn save(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
        submission: &NewSubmission,
        now: i64,
    ) -> Result<SaveOutcome, RepositoryError>;

    /// What a key that is no longer live did: `Replayed` when it stored a submission with
    /// this fingerprint, `KeyReused` when with another, `KeyUnknown` when it stored nothing.
    async fn recall(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
    ) -> Result<SaveOutcome, RepositoryError>;

    /// Stored submissions, oldest first.
    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError>;

    /// The owner's table: the page `query` asks for of the submissions whose values, form id
    /// or form name contain its search, newest first, with how many match in all.
    async fn page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<StoredSubmission>, RepositoryError>;
}

/// A limit of `max` events per `window_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub max: u32,
    pub window_seconds: i64,
}

/// The answer of a rate limiter for one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until the window resets.
    pub reset_after: i64,
}

/// Counts events per bucket in fixed windows.
#[async_trait]
pub trait RateLimiter: Send + Sync {
    async fn hit(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError>;

    /// What the next [`Self::hit`] on `bucket` would answer, without counting it: a limit
    /// counted on failures (failed payments) is checked before the attempt and counted only
    /// when the attempt fails.
    async fn peek(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError>;
}

/// A captcha provider's verdict.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CaptchaError {
    #[error("the captcha provider could not be reached: {0}")]
    Unavailable(String),
}

/// Verifies the token a captcha widget gave the visitor.
#[async_trait]
pub trait CaptchaVerifier: Send + Sync {
    async fn verify(&self, token: &str) -> Result<bool, CaptchaError>;
}

/// A store that issues keys and stores submissions on the same database, so a key's
/// consumption and its submission can share one transaction.
pub trait FormStore: SubmissionKeyStore + SubmissionStore {}

impl<T: SubmissionKeyStore + SubmissionStore + ?Sized> FormStore for T {}
