//! Forms and newsletters: the form model, value shapes, summary parts, the Likert scale, the
//! validation rules, the submission rules and the ports they need (spec 000 s3, s4, s5, s7,
//! s8; 001 s3), with an in-memory implementation of each port.

pub mod channels;
#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
pub mod delivery;
pub mod export;
pub mod likert;
pub mod mail_html;
pub mod memory;
pub mod messages;
pub mod model;
pub mod newsletter;
pub mod outbox;
#[cfg(any(test, feature = "test-support"))]
pub mod outbox_conformance;
pub mod ports;
pub mod service;
pub mod submission;
pub mod success_url;
pub mod summary;
pub mod validation;
pub mod values;
pub mod vectors;

pub use channels::{Mail, Mailer, SendError, SiteLinks, SubmissionNotice, WebhookSender};
pub use delivery::{DeliveryChannels, DeliveryRound, DeliveryService, RetryPolicy};
pub use model::{FieldDefinition, FieldKind, FormDefinition, FormKind};
pub use newsletter::NewsletterService;
pub use outbox::{
    DeliveryKind, DeliveryOutbox, DeliveryRecord, DeliverySubject, DueDelivery, FollowUp,
    NewsletterSubscriptions, Subscriber, SubscriptionTokens, TokenOutcome,
};
pub use ports::{
    CaptchaError, CaptchaVerifier, FormStore, RateDecision, RateLimit, RateLimiter, SaveOutcome,
    SubmissionKeyStore, SubmissionStore,
};
pub use service::{
    FormService, IssueKeyError, RateLimits, SubmitFormError, SubmitReceipt, SubmitRequest,
};
pub use submission::{NewSubmission, StoredSubmission, SubmissionKey, SubmittedValues};
pub use validation::FieldErrors;
pub use values::FieldValue;
