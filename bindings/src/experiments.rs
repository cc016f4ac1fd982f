//! Experiments (001 s3, s4, s8) and the client gating rules (001 s6) for the app: the same
//! bucketing as the server and the browser, and the experiment context with its defaults and
//! error texts, decided from the site's definitions as JSON (the server's stored shape).

use vitrine_core::experiments as core;

use crate::mirror::mirror_enum;

mirror_enum! {
    /// FEATURE_TOGGLE or AB_TEST.
    ExperimentType => core::ExperimentType { FeatureToggle, AbTest }
}
mirror_enum! {
    VisitorKind => core::VisitorKind { New, Returning }
}
mirror_enum! {
    DeviceClass => core::DeviceClass { Desktop, Tablet, Mobile }
}

/// Why the site's definitions could not be read.
#[derive(Debug, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum ExperimentsError {
    #[error("the experiment definitions are not valid JSON of the server's shape: {0}")]
    InvalidDefinitionsJson(#[from] serde_json::Error),
}

/// Who the decision is for. `cookieless` marks a per-day id (no tracking consent).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ExperimentVisitor {
    pub visitor_id: String,
    pub cookieless: bool,
    pub kind: VisitorKind,
    pub member: bool,
    pub device: DeviceClass,
    pub locale: String,
}

/// The experiment context of 001 s3, with the error text when the defaults were returned and
/// whether the visitor takes part (and so counts as exposed).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ExperimentDecision {
    pub name: String,
    pub experiment_type: ExperimentType,
    pub variant: String,
    pub segment_name: Option<String>,
    pub contains_error: bool,
    pub error: Option<String>,
    pub exposed: bool,
}

/// The visitor's bucket in the experiment, in 0..10,000.
#[uniffi::export]
pub fn experiment_bucket(experiment: String, visitor_id: String) -> u16 {
    core::bucket(&experiment, &visitor_id)
}

/// The variant of `name`, expected to be of type `expected`, for `visitor`; `definitions_json`
/// is none while the configuration is not loaded.
#[uniffi::export]
pub fn decide_experiment(
    definitions_json: Option<String>,
    name: String,
    expected: ExperimentType,
    visitor: ExperimentVisitor,
) -> Result<ExperimentDecision, ExperimentsError> {
    let definitions: Option<core::Experiments> = definitions_json
        .map(|json| serde_json::from_str(&json))
        .transpose()?;
    let facts = core::VisitorFacts {
        key: if visitor.cookieless {
            core::VisitorKey::Cookieless(visitor.visitor_id)
        } else {
            core::VisitorKey::Cookie(visitor.visitor_id)
        },
        kind: visitor.kind.into(),
        member: visitor.member,
        device: visitor.device.into(),
        locale: visitor.locale,
    };
    let assignment = core::decide(definitions.as_ref(), &name, expected.into(), &facts);
    Ok(ExperimentDecision {
        error: assignment.error.map(|error| error.to_string()),
        exposed: assignment.exposed,
        name: assignment.context.name,
        experiment_type: assignment.context.experiment_type.into(),
        variant: assignment.context.variant,
        segment_name: assignment.context.segment_name,
        contains_error: assignment.context.contains_error,
    })
}

/// 001 s4: a feature toggle is on when its variant equals 'true'.
#[uniffi::export]
pub fn is_feature_enabled(decision: ExperimentDecision) -> bool {
    core::is_feature_enabled(&core::ExperimentContext {
        name: decision.name,
        experiment_type: decision.experiment_type.into(),
        variant: decision.variant,
        segment_name: decision.segment_name,
        contains_error: decision.contains_error,
    })
}

/// Whether a sample of `per_ten_thousand` in 10,000 visitors takes the visitor in `bucket`.
#[uniffi::export]
pub fn sample_picks(bucket: u16, per_ten_thousand: u16) -> bool {
    core::sample_picks(bucket, per_ten_thousand)
}

/// 001 s6: mouse position tracking only with a signed-in account.
#[uniffi::export]
pub fn mouse_position_tracking_enabled(authenticated_account: bool) -> bool {
    core::mouse_position_tracking_enabled(authenticated_account)
}

/// 001 s6: session replay only with its toggle on, the sample's pick and more than 2 cores.
#[uniffi::export]
pub fn session_replay_enabled(toggle_on: bool, sampled: bool, cpu_cores: Option<u32>) -> bool {
    core::session_replay_enabled(toggle_on, sampled, cpu_cores)
}
