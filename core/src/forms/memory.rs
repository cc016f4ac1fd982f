//! In-memory implementations of the form ports: the single-process default and the reference
//! the conformance suite holds the SQL adapters to.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;

use super::channels::Mail;
use super::outbox::{
    DeliveryKind, DeliveryOutbox, DeliveryRecord, DeliverySubject, DueDelivery,
    NewsletterSubscriptions, Subscriber, TokenOutcome,
};
use super::ports::{
    CaptchaError, CaptchaVerifier, RateDecision, RateLimit, RateLimiter, SaveOutcome,
    SubmissionKeyStore, SubmissionStore,
};
use super::submission::{KEY_LIFETIME_SECONDS, NewSubmission, StoredSubmission, SubmissionKey};
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// Issued keys and when they expire, in this process: the single-server default. Keys do not
/// survive a restart (a visitor whose form page is older than the restart is asked to reload);
/// several servers need a shared key store.
#[derive(Debug, Default)]
pub struct MemoryKeyStore {
    keys: Mutex<IssuedKeys>,
}

#[derive(Debug, Default)]
struct IssuedKeys {
    /// Each key and the second it expires.
    expiries: HashMap<SubmissionKey, i64>,
    /// The second the expired keys were last dropped.
    pruned_at: i64,
}

impl MemoryKeyStore {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl SubmissionKeyStore for MemoryKeyStore {
    async fn issue(&self, key: &SubmissionKey, expires_at: i64) -> Result<(), RepositoryError> {
        let mut keys = self
            .keys
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        // A key issued now expires a lifetime from now. Expired keys are dropped once a
        // second, so the map holds only live keys (an hour of them) without every issue
        // walking all of them.
        let now = expires_at - KEY_LIFETIME_SECONDS;
        if keys.pruned_at != now {
            keys.expiries.retain(|_, expiry| *expiry > now);
            keys.pruned_at = now;
        }
        keys.expiries.insert(key.clone(), expires_at);
        Ok(())
    }

    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError> {
        let keys = self
            .keys
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Ok(keys
            .expiries
            .get(key)
            .is_some_and(|expires_at| *expires_at > now))
    }
}

#[derive(Debug, Default)]
struct FormStoreState {
    /// Consumed keys: the fingerprint and the submission each produced.
    consumed: HashMap<SubmissionKey, (String, i64)>,
    submissions: Vec<StoredSubmission>,
    subscriptions: HashMap<(String, String), i64>,
    /// Every subscriber ever stored, by submission id (unsubscribed ones too).
    subscribers: HashMap<i64, Subscriber>,
    outbox: Vec<DeliveryRecord>,
    /// The composed mails of [`DeliveryKind::SiteUserMail`] deliveries, by delivery id.
    mails: HashMap<i64, Mail>,
}

impl FormStoreState {
    fn enqueue(&mut self, submission_id: i64, kinds: &[DeliveryKind], now_ms: i64) {
        for kind in kinds {
            let id = self.next_delivery_id();
            self.outbox.push(DeliveryRecord {
                id,
                submission_id: Some(submission_id),
                order_id: None,
                kind: *kind,
                attempts: 0,
                next_attempt_ms: now_ms,
                delivered_ms: None,
                failed: false,
                last_error: None,
            });
        }
    }

    /// One more than the highest id given: withdrawn deliveries leave gaps, never reused ids.
    fn next_delivery_id(&self) -> i64 {
        self.outbox.last().map_or(1, |record| record.id + 1)
    }

    fn subscriber_with(&self, token: &str) -> Option<&Subscriber> {
        self.subscribers.values().find(|subscriber| {
            subscriber.unsubscribe_token == token
                || subscriber.confirm_token.as_deref() == Some(token)
        })
    }

    fn delivery(&mut self, id: i64) -> Result<&mut DeliveryRecord, RepositoryError> {
        self.outbox
            .iter_mut()
            .find(|record| record.id == id)
            .ok_or_else(|| RepositoryError::Unavailable(format!("no delivery {id}")))
    }
}

/// Consumed keys and submissions in one lock, so consuming a key and storing its submission
/// are one step, as the SQL adapters do them in one transaction. It is also a key store (an
/// inner [`MemoryKeyStore`]) so tests can use one value for both ports.
#[derive(Debug, Default)]
pub struct MemoryFormStore {
    keys: MemoryKeyStore,
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
        self.keys.issue(key, expires_at).await
    }

    async fn is_live(&self, key: &SubmissionKey, now: i64) -> Result<bool, RepositoryError> {
        self.keys.is_live(key, now).await
    }
}

fn recalled(consumed: Option<&(String, i64)>, fingerprint: &str) -> SaveOutcome {
    match consumed {
        Some((used, id)) if used == fingerprint => SaveOutcome::Replayed { id: *id },
        Some(_) => SaveOutcome::KeyReused,
        None => SaveOutcome::KeyUnknown,
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
        if let Some(consumed) = state.consumed.get(key) {
            return Ok(recalled(Some(consumed), fingerprint));
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
                    if let Some(tokens) = &submission.follow_up.tokens {
                        state.subscribers.insert(
                            id,
                            Subscriber {
                                submission_id: id,
                                list: submission.form_id.clone(),
                                email: email.clone(),
                                unsubscribe_token: tokens.unsubscribe.clone(),
                                confirm_token: tokens.confirm.clone(),
                                confirmed: tokens.confirm.is_none(),
                                unsubscribed: false,
                            },
                        );
                    }
                }
                state.enqueue(id, &submission.follow_up.deliveries, now * 1000);
                id
            }
        };
        state
            .consumed
            .insert(key.clone(), (fingerprint.to_owned(), id));
        Ok(SaveOutcome::Stored { id })
    }

    async fn recall(
        &self,
        key: &SubmissionKey,
        fingerprint: &str,
    ) -> Result<SaveOutcome, RepositoryError> {
        Ok(recalled(self.lock().consumed.get(key), fingerprint))
    }

    async fn list(&self) -> Result<Vec<StoredSubmission>, RepositoryError> {
        Ok(self.lock().submissions.clone())
    }

    async fn page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<StoredSubmission>, RepositoryError> {
        let matching = self
            .lock()
            .submissions
            .iter()
            .rev()
            .filter(|row| query.matches(&[&row.form_id, &row.object_name, &row.values_json]))
            .cloned()
            .collect();
        Ok(query.cut(matching))
    }
}

#[async_trait]
impl DeliveryOutbox for MemoryFormStore {
    async fn claim_due(
        &self,
        now_ms: i64,
        lease_ms: i64,
        limit: u32,
    ) -> Result<Vec<DueDelivery>, RepositoryError> {
        let mut state = self.lock();
        let due: Vec<usize> = state
            .outbox
            .iter()
            .enumerate()
            .filter(|(_, r)| r.delivered_ms.is_none() && !r.failed && r.next_attempt_ms <= now_ms)
            .map(|(index, _)| index)
            .take(limit as usize)
            .collect();
        let mut claimed = Vec::new();
        for index in due {
            state.outbox[index].next_attempt_ms = now_ms + lease_ms;
            let record = state.outbox[index].clone();
            if let Some(mail) = state.mails.get(&record.id) {
                claimed.push(DueDelivery {
                    id: record.id,
                    kind: record.kind,
                    attempts: record.attempts,
                    subject: DeliverySubject::Mail(mail.clone()),
                });
                continue;
            }
            let Some(submission) = state
                .submissions
                .iter()
                .find(|s| Some(s.id) == record.submission_id)
                .cloned()
            else {
                continue;
            };
            claimed.push(DueDelivery {
                id: record.id,
                kind: record.kind,
                attempts: record.attempts,
                subject: DeliverySubject::Submission {
                    subscriber: state.subscribers.get(&submission.id).cloned(),
                    submission,
                },
            });
        }
        Ok(claimed)
    }

    async fn mark_delivered(&self, id: i64, now_ms: i64) -> Result<(), RepositoryError> {
        let mut state = self.lock();
        let record = state.delivery(id)?;
        record.delivered_ms = Some(now_ms);
        record.attempts += 1;
        Ok(())
    }

    async fn schedule_retry(
        &self,
        id: i64,
        attempts: u32,
        next_attempt_ms: i64,
        error: &str,
    ) -> Result<(), RepositoryError> {
        let mut state = self.lock();
        let record = state.delivery(id)?;
        record.attempts = attempts;
        record.next_attempt_ms = next_attempt_ms;
        record.last_error = Some(error.to_owned());
        Ok(())
    }

    async fn give_up(&self, id: i64, attempts: u32, error: &str) -> Result<(), RepositoryError> {
        let mut state = self.lock();
        let record = state.delivery(id)?;
        record.attempts = attempts;
        record.failed = true;
        record.last_error = Some(error.to_owned());
        Ok(())
    }

    async fn deliveries(&self) -> Result<Vec<DeliveryRecord>, RepositoryError> {
        Ok(self.lock().outbox.clone())
    }

    async fn enqueue_mail(&self, mail: &Mail, now_ms: i64) -> Result<(), RepositoryError> {
        let mut state = self.lock();
        let id = state.next_delivery_id();
        state.outbox.push(DeliveryRecord {
            id,
            submission_id: None,
            order_id: None,
            kind: DeliveryKind::SiteUserMail,
            attempts: 0,
            next_attempt_ms: now_ms,
            delivered_ms: None,
            failed: false,
            last_error: None,
        });
        state.mails.insert(id, mail.clone());
        Ok(())
    }

    async fn mail_of(&self, id: i64) -> Result<Option<Mail>, RepositoryError> {
        Ok(self.lock().mails.get(&id).cloned())
    }

    async fn withdraw_mails_to(&self, email: &str) -> Result<u32, RepositoryError> {
        if email.is_empty() {
            return Ok(0);
        }
        let email = email.to_lowercase();
        let mut state = self.lock();
        let FormStoreState { outbox, mails, .. } = &mut *state;
        let before = outbox.len();
        outbox.retain(|record| {
            let withdrawn = record.delivered_ms.is_none()
                && mails
                    .get(&record.id)
                    .is_some_and(|mail| mail.to.to_lowercase() == email);
            if withdrawn {
                mails.remove(&record.id);
            }
            !withdrawn
        });
        Ok(u32::try_from(before - outbox.len()).unwrap_or(u32::MAX))
    }
}

#[async_trait]
impl NewsletterSubscriptions for MemoryFormStore {
    async fn subscriber_by_token(
        &self,
        token: &str,
    ) -> Result<Option<Subscriber>, RepositoryError> {
        Ok(self.lock().subscriber_with(token).cloned())
    }

    async fn subscriptions_of(&self, email: &str) -> Result<Vec<Subscriber>, RepositoryError> {
        let email = email.to_lowercase();
        let mut found: Vec<Subscriber> = self
            .lock()
            .subscribers
            .values()
            .filter(|s| !s.unsubscribed && s.email.to_lowercase() == email)
            .cloned()
            .collect();
        found.sort_by_key(|s| s.submission_id);
        Ok(found)
    }

    async fn subscriber_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<Subscriber>, RepositoryError> {
        let mut matching: Vec<Subscriber> = self
            .lock()
            .subscribers
            .values()
            .filter(|s| query.matches(&[&s.email, &s.list]))
            .cloned()
            .collect();
        matching.sort_by_key(|s| std::cmp::Reverse(s.submission_id));
        Ok(query.cut(matching))
    }

    async fn confirm(
        &self,
        confirm_token: &str,
        deliveries: &[DeliveryKind],
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError> {
        let mut state = self.lock();
        let Some(subscriber) = state
            .subscribers
            .values_mut()
            .find(|s| s.confirm_token.as_deref() == Some(confirm_token))
        else {
            return Ok(TokenOutcome::Unknown);
        };
        if subscriber.confirmed || subscriber.unsubscribed {
            return Ok(TokenOutcome::AlreadyDone);
        }
        subscriber.confirmed = true;
        let id = subscriber.submission_id;
        state.enqueue(id, deliveries, now * 1000);
        Ok(TokenOutcome::Done)
    }

    async fn unsubscribe(
        &self,
        unsubscribe_token: &str,
        _now: i64,
    ) -> Result<TokenOutcome, RepositoryError> {
        let mut state = self.lock();
        let Some(subscriber) = state
            .subscribers
            .values_mut()
            .find(|s| s.unsubscribe_token == unsubscribe_token)
        else {
            return Ok(TokenOutcome::Unknown);
        };
        if subscriber.unsubscribed {
            return Ok(TokenOutcome::AlreadyDone);
        }
        subscriber.unsubscribed = true;
        let key = (subscriber.list.clone(), subscriber.email.clone());
        state.subscriptions.remove(&key);
        Ok(TokenOutcome::Done)
    }

    async fn erase_subscriptions_of(&self, email: &str) -> Result<u32, RepositoryError> {
        let mut state = self.lock();
        let email = email.to_lowercase();
        let erased: Vec<Subscriber> = state
            .subscribers
            .values()
            .filter(|s| s.email.to_lowercase() == email)
            .cloned()
            .collect();
        for subscriber in &erased {
            state.subscribers.remove(&subscriber.submission_id);
            let key = (subscriber.list.clone(), subscriber.email.clone());
            state.subscriptions.remove(&key);
        }
        Ok(u32::try_from(erased.len()).unwrap_or(u32::MAX))
    }
}

/// Fixed-window counters in memory: right for one process; several servers need a shared
/// limiter.
#[derive(Debug, Default)]
pub struct MemoryRateLimiter {
    windows: Mutex<Windows>,
}

#[derive(Debug, Default)]
struct Windows {
    /// Per bucket: the start of its window, the window's length and the hits counted.
    counts: HashMap<String, (i64, i64, u32)>,
    /// The second the passed windows were last dropped.
    pruned_at: i64,
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
        // Passed windows are dropped once a second, so the map holds only active visitors
        // without every hit walking all of them. Each by its own length: buckets of ten
        // minutes must outlive a call with one minute.
        if windows.pruned_at != now {
            windows
                .counts
                .retain(|_, (window_start, length, _)| *window_start + *length > now);
            windows.pruned_at = now;
        }
        let entry = windows
            .counts
            .entry(bucket.to_owned())
            .or_insert((start, window, 0));
        let allowed = entry.2 < limit.max;
        if allowed {
            entry.2 += 1;
        }
        Ok(RateDecision {
            allowed,
            limit: limit.max,
            remaining: limit.max.saturating_sub(entry.2),
            reset_after: entry.0 + entry.1 - now,
        })
    }

    async fn peek(
        &self,
        bucket: &str,
        limit: RateLimit,
        now: i64,
    ) -> Result<RateDecision, RepositoryError> {
        let windows = self
            .windows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let window = limit.window_seconds.max(1);
        let (start, length, used) = windows
            .counts
            .get(bucket)
            .copied()
            .filter(|(start, length, _)| *start + *length > now)
            .unwrap_or((now - now.rem_euclid(window), window, 0));
        Ok(RateDecision {
            allowed: used < limit.max,
            limit: limit.max,
            remaining: limit.max.saturating_sub(used),
            reset_after: start + length - now,
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
    crate::delivery_store_conformance!(MemoryFormStore::new());

    mod key_store {
        use super::*;
        crate::key_store_conformance!(MemoryKeyStore::new());

        #[tokio::test]
        async fn expired_keys_are_dropped_once_a_second_so_the_map_holds_only_live_keys() {
            let store = MemoryKeyStore::new();
            let issued_at = 1_700_000_000;
            let expiry = issued_at + KEY_LIFETIME_SECONDS;
            let key = |n: u32, marker: u8| {
                let mut bytes = [marker; crate::forms::submission::KEY_BYTES];
                bytes[..4].copy_from_slice(&n.to_be_bytes());
                SubmissionKey::from_random(bytes)
            };
            for n in 0..5_000 {
                store.issue(&key(n, 0), expiry).await.unwrap();
            }
            let held = |store: &MemoryKeyStore| store.keys.lock().unwrap().expiries.len();
            assert_eq!(held(&store), 5_000);
            // Keys still live are kept; once they expire, the next issue drops them all.
            store.issue(&key(1, 1), expiry + 60).await.unwrap();
            assert_eq!(held(&store), 5_001);
            store
                .issue(&key(2, 1), expiry + KEY_LIFETIME_SECONDS)
                .await
                .unwrap();
            assert_eq!(held(&store), 2);
        }
    }

    mod rate_limiter {
        use super::*;
        crate::rate_limiter_conformance!(MemoryRateLimiter::new());

        #[tokio::test]
        async fn passed_windows_are_dropped_so_the_map_holds_only_active_buckets() {
            let limiter = MemoryRateLimiter::new();
            let minute = RateLimit {
                max: 5,
                window_seconds: 60,
            };
            let start = 1_700_000_040;
            for visitor in 0..1000 {
                let bucket = format!("visitor:{visitor}");
                limiter.hit(&bucket, minute, start).await.unwrap();
            }
            let held = |limiter: &MemoryRateLimiter| limiter.windows.lock().unwrap().counts.len();
            assert_eq!(held(&limiter), 1000);
            // Within the window nothing is dropped; a window later only the new bucket is held.
            limiter.hit("late", minute, start + 30).await.unwrap();
            assert_eq!(held(&limiter), 1001);
            limiter.hit("next", minute, start + 120).await.unwrap();
            assert_eq!(held(&limiter), 1);
        }
    }
}
