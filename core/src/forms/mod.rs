//! Forms and newsletters: the form model, value shapes, summary parts, the Likert scale, the
//! validation rules, the submission rules and the ports they need (spec 000 s3, s4, s5, s7,
//! s8; 001 s3), with an in-memory implementation of each port.

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
pub mod export;
pub mod likert;
pub mod memory;
pub mod messages;
pub mod model;
pub mod ports;
pub mod service;
pub mod submission;
pub mod summary;
pub mod validation;
pub mod values;
pub mod vectors;

pub use model::{FieldDefinition, FieldKind, FormDefinition, FormKind};
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
