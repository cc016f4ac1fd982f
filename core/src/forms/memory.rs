//! In-memory implementations of the form ports: the single-process default and the reference
//! the conformance suite holds the SQL adapters to.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::ports::{
    CaptchaError, CaptchaVerifier, RateDecision, RateLimit, RateLimiter, SaveOutcome,
    SubmissionKeyStore, SubmissionStore,
};
use super::submission::{NewSubmission, StoredSubmission, SubmissionKey};
use crate::ports::RepositoryError;

#[derive(Debug, Clone)]
struct KeyRecord {
    expires_at: i64,
    /// Set when the key is consumed: the fingerprint and the submission it produced.
    consumed: Option<(String, i64)>,
}

#[derive(Debug, Default)]
struct FormStoreState {
    keys: HashMap<SubmissionKey, KeyRecord>,
    submissions: Vec<StoredSubmission>,
    subscriptions: HashMap<(String, String), i64>,
}

/// Keys and submissions in one lock, so consuming a key and storing its submission are one
/// step, as the SQL adapters do them in one transaction.
#[derive(Debug, Default)]
pub struct MemoryFormStore {
    state: Mutex<FormStoreState>,
}

impl MemoryFormStore {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FormStoreState> {
        // A panic while holding the lock cannot leave a half-written state: every change
        // below is made after all checks pass.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[async_trait]
impl SubmissionKeyStore for MemoryFormStore {
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError> {
        let mut state = self.lock();
        state.keys.insert(
            key.clone(),
            KeyRecord {
                expires_at,
                consumed: None,
            },
        );
        Ok(())
    }
}

#[async_trait]
impl SubmissionStore for MemoryFormStore {
    async fn save(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
        submission: &NewSubmission,
        now: i64,
    ) -> Result<SaveOutcome, RepositoryError> {
        let mut state = self.lock();
        let Some(record) = state.keys.get(key).cloned() else {
            return Ok(SaveOutcome::KeyUnknown);
        };
        match record.consumed {
            Some((used, id)) if used == fingerprint => return Ok(SaveOutcome::Replayed { id }),
            Some(_) => return Ok(SaveOutcome::KeyReused),
            None if record.expires_at <= now => return Ok(SaveOutcome::KeyUnknown),
            None => {}
        }
        let existing = submission.subscription.as_ref().and_then(|email| {
            state
                .subscriptions
                .get(&(submission.form_id.clone(), email.clone()))
                .copied()
        });
        let id = match existing {
            Some(id) => id,
            None => {
                let id = state.submissions.len() as i64 + 1;
                state.submissions.push(StoredSubmission {
                    id,
                    form_id: submission.form_id.clone(),
                    collection_id: submission.collection_id.clone(),
                    object_name: submission.object_name.clone(),
                    is_overlay_form: submission.is_overlay_form,
                    values_json: submission.values.to_json(),
                    spam: submission.spam,
                    created_at: submission.created_at,
                });
                if let Some(email) = &submission.subscription {
                    state
                        .subscriptions
                        .insert((submission.form_id.clone(), email.clone()), id);
                }
                id
            }
        };
        if let Some(record) = state.keys.get_mut(key) {
            record.consumed = Some((fingerprint.to_owned(), id));
        }
        Ok(SaveOutcome::Stored { id })
    }

    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError> {
        Ok(self.lock().submissions.clone())
    }
}

/// Fixed-window counters in memory: right for one process; several servers need a shared
/// limiter.
#[derive(Debug, Default)]
pub struct MemoryRateLimiter {
    windows: Mutex<HashMap<String, (i64, u32)>>,
}

impl MemoryRateLimiter {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl RateLimiter for MemoryRateLimiter {
    async fn hit(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError> {
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let window = limit.window_seconds.max(1);
        let start = now - now.rem_euclid(window);
        // Old windows are dropped as they pass, so the map holds only active visitors.
        windows.retain(|_, (window_start, _)| *window_start + window > now);
        let entry = windows.entry(bucket.to_owned()).or_insert((start, 0));
        let allowed = entry.1 < limit.max;
        if allowed {
            entry.1 += 1;
        }
        Ok(RateDecision {
            allowed,
            limit: limit.max,
            remaining: limit.max.saturating_sub(entry.1),
            reset_after: entry.0 + window - now,
        })
    }
}

/// The deterministic captcha for tests and local runs: the token `"pass"` is solved, any
/// other is not, and `"unavailable"` behaves as a provider that cannot be reached.
#[derive(Debug, Default, Clone, Copy)]
pub struct DeterministicCaptcha;

impl DeterministicCaptcha {
    pub const SOLVED: &'static str = "pass";
    pub const UNREACHABLE: &'static str = "unavailable";
}

#[async_trait]
impl CaptchaVerifier for DeterministicCaptcha {
    async fn verify(&self, token: &str) -> Result<bool, CaptchaError> {
        match token {
            Self::UNREACHABLE => Err(CaptchaError::Unavailable("test provider down".into())),
            token => Ok(token == Self::SOLVED),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::form_store_conformance!(MemoryFormStore::new());

    #[tokio::test]
    async fn the_limiter_refuses_past_the_limit_until_the_window_resets() {
        let limiter = MemoryRateLimiter::new();
        let limit = RateLimit {
            max: 2,
            window_seconds: 60,
        };
        assert!(limiter.hit("v", limit, 120).await.unwrap().allowed);
        let second = limiter.hit("v", limit, 130).await.unwrap();
        assert_eq!((second.allowed, second.remaining), (true, 0));
        let third = limiter.hit("v", limit, 170).await.unwrap();
        assert!(!third.allowed);
        assert_eq!(third.reset_after, 10);
        assert!(limiter.hit("other", limit, 170).await.unwrap().allowed);
        assert!(limiter.hit("v", limit, 180).await.unwrap().allowed);
    }
}
