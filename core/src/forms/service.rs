//! The form service: issues submission keys and runs a submission through the spec's rules
//! (000 s5, s7): the form must exist on a published page, the visitor and the form must be
//! under their rate limits, every field is validated again, the captcha must be solved, and
//! the key is consumed exactly once together with the stored submission.

use std::sync::Arc;

use crate::popup::{POPUP_FORM_ID, popup_has_newsletter};

use super::model::{FormDefinition, FormKind, NEWSLETTER_EMAIL_FIELD};
use super::newsletter::subscription_tokens;
use super::outbox::{DeliveryKind, FollowUp};
use super::ports::{
    CaptchaError, CaptchaVerifier, RateDecision, RateLimit, RateLimiter, SaveOutcome,
    SubmissionKeyStore, SubmissionStore,
};
use super::submission::{
    KEY_BYTES, KEY_LIFETIME_SECONDS, NewSubmission, StoredSubmission, SubmissionKey,
    SubmittedValues, fingerprint,
};
use super::validation::{FieldErrors, validate_field};
use super::values::FieldValue;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::{RepositoryError, SiteRepository};
use crate::site::SafeHtml;

/// The rate limits of the form calls.
///
/// The specification names the 429 answer but not the limits. These let a person correct and
/// resend a form many times while stopping a script: 10 submissions a minute per visitor, 120
/// a minute per form across all visitors, and 30 keys a minute per visitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    pub submissions_per_visitor: RateLimit,
    pub submissions_per_form: RateLimit,
    pub keys_per_visitor: RateLimit,
}

impl Default for RateLimits {
    fn default() -> Self {
        let per_minute = |max| RateLimit {
            max,
            window_seconds: 60,
        };
        Self {
            submissions_per_visitor: per_minute(10),
            submissions_per_form: per_minute(120),
            keys_per_visitor: per_minute(30),
        }
    }
}

/// A submission as the HTTP adapter read it from the request (000 s7).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubmitRequest {
    pub key: String,
    pub form_id: String,
    pub collection_id: Option<String>,
    pub object_name: String,
    pub is_overlay_form: bool,
    pub submit_button_text: String,
    /// The `form` field: a JSON object of field id to value.
    pub form_json: String,
    pub captcha_key: Option<String>,
    /// The honeypot input: people never see it, so anything in it came from a bot.
    pub honeypot: String,
    /// Who is submitting, for the per-visitor limit.
    pub visitor: String,
}

/// A successful (or silently absorbed) submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitReceipt {
    pub submission_id: i64,
    /// The key had already stored this submission; nothing new was stored.
    pub replayed: bool,
    /// The honeypot was filled: stored for the owner to inspect, answered as a success, and
    /// otherwise ignored.
    pub spam: bool,
    pub kind: FormKind,
    /// Sanitised: no scripts, event handlers or `javascript:` URLs.
    pub post_submit_message: SafeHtml,
    /// Where to send the visitor instead of showing the message (a checked URL).
    pub success_url: Option<String>,
}

/// Why a submission was not accepted, business reasons first.
#[derive(Debug, thiserror::Error)]
pub enum SubmitFormError {
    #[error("no published page has this form")]
    UnknownForm,
    #[error("too many submissions")]
    RateLimited(RateDecision),
    #[error("the form JSON could not be read")]
    Unparseable,
    #[error("some fields are invalid")]
    Invalid(FieldErrors),
    #[error("the captcha is not solved")]
    CaptchaUnsolved,
    #[error("the key is unknown or expired")]
    KeyUnknown,
    #[error("the key was used for another submission")]
    KeyReused,
    #[error(transparent)]
    Captcha(#[from] CaptchaError),
    #[error(transparent)]
    Store(#[from] RepositoryError),
}

/// Why a key could not be issued.
#[derive(Debug, thiserror::Error)]
pub enum IssueKeyError {
    #[error("too many keys requested")]
    RateLimited(RateDecision),
    #[error(transparent)]
    Store(#[from] RepositoryError),
}

/// The forms use case, over its ports.
pub struct FormService {
    site: Arc<dyn SiteRepository>,
    keys: Arc<dyn SubmissionKeyStore>,
    submissions: Arc<dyn SubmissionStore>,
    limiter: Arc<dyn RateLimiter>,
    captcha: Option<Arc<dyn CaptchaVerifier>>,
    limits: RateLimits,
    /// Enqueued with every stored submission that is not spam.
    owner_deliveries: Vec<DeliveryKind>,
    /// Newsletter sign-ups wait for the subscriber to follow a mailed link.
    double_opt_in: bool,
}

impl FormService {
    pub fn new(
        site: Arc<dyn SiteRepository>,
        keys: Arc<dyn SubmissionKeyStore>,
        submissions: Arc<dyn SubmissionStore>,
        limiter: Arc<dyn RateLimiter>,
    ) -> Self {
        Self {
            site,
            keys,
            submissions,
            limiter,
            captcha: None,
            limits: RateLimits::default(),
            owner_deliveries: Vec::new(),
            double_opt_in: false,
        }
    }

    /// Requires a solved captcha on every submission.
    pub fn with_captcha(mut self, captcha: Arc<dyn CaptchaVerifier>) -> Self {
        self.captcha = Some(captcha);
        self
    }

    /// Enqueues `owner_deliveries` with every stored submission (in the same transaction),
    /// and with `double_opt_in` a confirmation mail for each new newsletter subscriber
    /// instead: the owner then hears of the subscriber once they confirm.
    pub fn with_deliveries(
        mut self,
        owner_deliveries: Vec<DeliveryKind>,
        double_opt_in: bool,
    ) -> Self {
        self.owner_deliveries = owner_deliveries;
        self.double_opt_in = double_opt_in;
        self
    }

    pub fn with_limits(mut self, limits: RateLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The owner's table of submissions: a page of the newest, searched.
    pub async fn submission_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<StoredSubmission>, RepositoryError> {
        self.submissions.page(query).await
    }

    /// Issues a key made from `random` (at least 128 bits from a secure source), usable for
    /// [`KEY_LIFETIME_SECONDS`].
    pub async fn issue_key(
        &self,
        random: [u8; KEY_BYTES],
        visitor: &str,
        now: i64,
    ) -> Result<SubmissionKey, IssueKeyError> {
        let decision = self
            .limiter
            .hit(&format!("key:{visitor}"), self.limits.keys_per_visitor, now)
            .await?;
        if !decision.allowed {
            return Err(IssueKeyError::RateLimited(decision));
        }
        let key = SubmissionKey::from_random(random);
        self.keys.issue(&key, now + KEY_LIFETIME_SECONDS).await?;
        Ok(key)
    }

    /// The form `form_id` as a published page shows it.
    ///
    /// Forms are looked up in the bodies of enabled collections, where the site's form and
    /// newsletter blocks live; a form that is on no published page is "not configured".
    pub async fn find_form(
        &self,
        form_id: &str,
    ) -> Result<Option<FormDefinition>, RepositoryError> {
        let collections = self.site.collections().await?;
        let on_a_page = collections
            .iter()
            .filter(|collection| collection.enabled)
            .flat_map(|collection| collection.body.layout.blocks())
            .find_map(|block| {
                FormDefinition::from_block(block.id.as_str(), &block.content, form_id)
            });
        if on_a_page.is_some() || form_id != POPUP_FORM_ID {
            return Ok(on_a_page);
        }
        // The popup overlay's newsletter form is configured while the overlay shows one.
        let popup = self.site.profile().await?.map(|p| p.settings.popup_overlay);
        Ok(popup
            .filter(popup_has_newsletter)
            .map(|_| FormDefinition::newsletter(POPUP_FORM_ID)))
    }

    pub async fn submit(
        &self,
        request: SubmitRequest,
        now: i64,
    ) -> Result<SubmitReceipt, SubmitFormError> {
        let form = self
            .find_form(&request.form_id)
            .await?
            .ok_or(SubmitFormError::UnknownForm)?;
        for (bucket, limit) in [
            (
                format!("visitor:{}", request.visitor),
                self.limits.submissions_per_visitor,
            ),
            (
                format!("form:{}", form.form_id),
                self.limits.submissions_per_form,
            ),
        ] {
            let decision = self.limiter.hit(&bucket, limit, now).await?;
            if !decision.allowed {
                return Err(SubmitFormError::RateLimited(decision));
            }
        }
        let key = SubmissionKey::parse(&request.key).map_err(|_| SubmitFormError::KeyUnknown)?;
        let values = read_values(&form, &request.form_json)?;
        let errors: FieldErrors = form
            .fields
            .iter()
            .filter_map(|field| {
                let value = values.get(&field.id)?;
                validate_field(field, value).map(|message| (field.id.clone(), message))
            })
            .collect();
        if !errors.is_empty() {
            return Err(SubmitFormError::Invalid(errors));
        }
        if let Some(captcha) = &self.captcha {
            let token = request.captcha_key.as_deref().unwrap_or("").trim();
            if token.is_empty() || !captcha.verify(token).await? {
                return Err(SubmitFormError::CaptchaUnsolved);
            }
        }
        let spam = !request.honeypot.trim().is_empty();
        // A bot's sign-up is kept as spam but is no subscription: it must not take the
        // address's place on the list before its owner signs up.
        let subscription = match form.kind {
            FormKind::Newsletter if !spam => values
                .get(NEWSLETTER_EMAIL_FIELD)
                .and_then(FieldValue::as_single)
                .map(|email| email.trim().to_lowercase()),
            FormKind::Newsletter | FormKind::Form => None,
        };
        let follow_up = self.follow_up(form.kind, &key, spam);
        let submission = NewSubmission {
            form_id: form.form_id.clone(),
            collection_id: request.collection_id.clone(),
            object_name: request.object_name.clone(),
            is_overlay_form: request.is_overlay_form,
            spam,
            subscription,
            values,
            created_at: now,
            follow_up,
        };
        let print = fingerprint(
            &submission.form_id,
            &submission.object_name,
            &submission.values,
        );
        // A key that is not live may still have stored this very submission before it
        // expired: that retry gets the first answer.
        let outcome = if self.keys.is_live(&key, now).await? {
            self.submissions
                .save(&key, &print, &submission, now)
                .await?
        } else {
            self.submissions.recall(&key, &print).await?
        };
        let (submission_id, replayed) = match outcome {
            SaveOutcome::Stored { id } => (id, false),
            SaveOutcome::Replayed { id } => (id, true),
            SaveOutcome::KeyReused => return Err(SubmitFormError::KeyReused),
            SaveOutcome::KeyUnknown => return Err(SubmitFormError::KeyUnknown),
        };
        Ok(SubmitReceipt {
            submission_id,
            replayed,
            spam,
            kind: form.kind,
            post_submit_message: form.post_submit_message,
            success_url: form.success_url,
        })
    }
}

impl FormService {
    /// What a stored submission leads to. Spam is kept for the owner to inspect but never
    /// delivered, and gets no subscription.
    fn follow_up(&self, kind: FormKind, key: &SubmissionKey, spam: bool) -> FollowUp {
        if spam {
            return FollowUp::default();
        }
        match kind {
            FormKind::Form => FollowUp {
                deliveries: self.owner_deliveries.clone(),
                tokens: None,
            },
            FormKind::Newsletter if self.double_opt_in => FollowUp {
                deliveries: vec![DeliveryKind::SubscriptionConfirmation],
                tokens: Some(subscription_tokens(key, true)),
            },
            FormKind::Newsletter => FollowUp {
                deliveries: self.owner_deliveries.clone(),
                tokens: Some(subscription_tokens(key, false)),
            },
        }
    }
}

/// Reads the `form` JSON against the definition: every field that holds a value gets one
/// (absent fields read as empty), and ids the form does not have are dropped.
fn read_values(form: &FormDefinition, form_json: &str) -> Result<SubmittedValues, SubmitFormError> {
    let json: serde_json::Value = if form_json.trim().is_empty() {
        serde_json::Value::Object(Default::default())
    } else {
        serde_json::from_str(form_json).map_err(|_| SubmitFormError::Unparseable)?
    };
    let object = json.as_object().ok_or(SubmitFormError::Unparseable)?;
    form.fields
        .iter()
        .filter(|field| field.kind.holds_value())
        .map(|field| {
            FieldValue::from_json(&field.id, &field.kind, object.get(&field.id))
                .map(|value| (field.id.clone(), value))
                .map_err(|_| SubmitFormError::Unparseable)
        })
        .collect::<Result<Vec<_>, _>>()
        .map(SubmittedValues)
}
