//! Experiments and feature toggles (001 s3, s4, s5, s8): their definitions in the site bundle,
//! the one bucketing that web, server and app share, the experiment context with its defaults
//! and error texts, the variants' changes to a page, and the client feature gating rules of
//! 001 s6 as pure functions.
//!
//! A visitor's bucket is a stable hash of the experiment's name and the visitor's id into
//! [`BUCKETS`] buckets; the bucket picks a variant by the variants' weights. The visitor id is
//! whatever the caller trusts: the analytics visitor cookie's id where the visitor allows
//! tracking, or the cookieless daily key, which changes every day, so such a visitor's bucket
//! is a per-day one and is marked as such ([`VisitorKey::Cookieless`]).

mod bucketing;
mod decision;
mod definition;
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
mod gating;
mod page;
mod report;
pub mod vectors;

pub use bucketing::{BUCKETS, VisitorKey, bucket, pick_variant, sample_picks};
pub use decision::{
    Assignment, DEFAULT_AB_TEST_VARIANT, DEFAULT_TOGGLE_VARIANT, ExperimentContext,
    ExperimentError, VisitorFacts, assign_all, control_all, decide, is_feature_enabled,
};
pub use definition::{
    BlockChange, DefinitionError, DeviceClass, Experiment, ExperimentType, Experiments,
    MAX_TOTAL_WEIGHT, Segment, Variant, VisitorKind,
};
pub use gating::{mouse_position_tracking_enabled, session_replay_enabled};
pub use page::{apply_variants, cache_key_suffix};
pub use report::{
    CONFIDENCE_Z, ExperimentFigures, RateDifference, experiment_figures, exposure_subject,
    rate_difference,
};

#[cfg(test)]
mod tests;
