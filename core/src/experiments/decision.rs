//! The experiment context of 001 s3 (name, experimentType, variant, segmentName,
//! containsError) as decided for one visitor, the defaults of 001 s4 and the error texts of
//! 001 s8.

use serde::Serialize;
use thiserror::Error;

use super::bucketing::{VisitorKey, bucket, pick_variant};
use super::definition::{DeviceClass, Experiment, ExperimentType, Experiments, VisitorKind};

/// The variant of a feature toggle that could not be decided: off.
pub const DEFAULT_TOGGLE_VARIANT: &str = "false";
/// The variant of an A/B test that could not be decided.
pub const DEFAULT_AB_TEST_VARIANT: &str = "control";

/// Why the defaults were returned (001 s8, verbatim).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ExperimentError {
    #[error("The underlying Praetor configuration is not loaded")]
    NotLoaded,
    #[error("The specified feature does not exist")]
    UnknownFeature,
    /// 001 s5: a type mismatch is reported as an error string naming the expected type.
    #[error("The specified feature is not a {0}")]
    WrongType(ExperimentType),
    #[error("The specified feature has an invalid server-side definition")]
    InvalidDefinition,
}

/// 001 s3's experiment context, as the page context carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExperimentContext {
    pub name: String,
    pub experiment_type: ExperimentType,
    pub variant: String,
    pub segment_name: Option<String>,
    pub contains_error: bool,
}

/// 001 s4: a feature toggle is enabled when its variant equals 'true'.
pub fn is_feature_enabled(context: &ExperimentContext) -> bool {
    context.experiment_type == ExperimentType::FeatureToggle && context.variant == "true"
}

/// What is known of the visitor a decision is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitorFacts {
    pub key: VisitorKey,
    pub kind: VisitorKind,
    pub member: bool,
    pub device: DeviceClass,
    pub locale: String,
}

/// One decision: the context, the error when the defaults were returned, and whether the
/// visitor takes part (is in the segment of a valid experiment), so an exposure is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub context: ExperimentContext,
    pub error: Option<ExperimentError>,
    pub exposed: bool,
    /// The visitor's bucket was the cookieless daily one.
    pub cookieless: bool,
}

impl Assignment {
    fn defaults(name: &str, experiment_type: ExperimentType, error: ExperimentError) -> Self {
        let variant = match experiment_type {
            ExperimentType::FeatureToggle => DEFAULT_TOGGLE_VARIANT,
            ExperimentType::AbTest => DEFAULT_AB_TEST_VARIANT,
        };
        Self {
            context: ExperimentContext {
                name: name.to_owned(),
                experiment_type,
                variant: variant.to_owned(),
                segment_name: None,
                contains_error: true,
            },
            error: Some(error),
            exposed: false,
            cookieless: false,
        }
    }
}

/// The variant of the feature `name`, which the caller expects to be of `expected` type, for
/// `visitor`; the defaults with the reason when the configuration is not loaded (`None`), the
/// feature is unknown or of another type, or its definition is invalid.
pub fn decide(
    configuration: Option<&Experiments>,
    name: &str,
    expected: ExperimentType,
    visitor: &VisitorFacts,
) -> Assignment {
    let Some(configuration) = configuration else {
        return Assignment::defaults(name, expected, ExperimentError::NotLoaded);
    };
    let Some(experiment) = configuration.get(name) else {
        return Assignment::defaults(name, expected, ExperimentError::UnknownFeature);
    };
    if experiment.experiment_type != expected {
        return Assignment::defaults(name, expected, ExperimentError::WrongType(expected));
    }
    assign(experiment, visitor)
}

/// The decision of every experiment that applies on the page at `path`, in definition order.
pub fn assign_all(
    experiments: &Experiments,
    path: &str,
    visitor: &VisitorFacts,
) -> Vec<Assignment> {
    experiments
        .iter()
        .filter(|experiment| experiment.applies_to(path))
        .map(|experiment| assign(experiment, visitor))
        .collect()
}

/// The decisions on the page at `path` for a visitor who cannot be told apart from others
/// (no cookie allowed and no daily key to count by): every experiment's first variant, with
/// nobody counted as exposed, so the figures hold only visitors who were really bucketed.
pub fn control_all(experiments: &Experiments, path: &str) -> Vec<Assignment> {
    experiments
        .iter()
        .filter(|experiment| experiment.applies_to(path))
        .map(|experiment| {
            let kind = experiment.experiment_type;
            let (Ok(()), Some(first)) = (experiment.check(), experiment.variants.first()) else {
                return Assignment::defaults(
                    &experiment.name,
                    kind,
                    ExperimentError::InvalidDefinition,
                );
            };
            Assignment {
                context: ExperimentContext {
                    name: experiment.name.clone(),
                    experiment_type: kind,
                    variant: first.name.clone(),
                    segment_name: None,
                    contains_error: false,
                },
                error: None,
                exposed: false,
                cookieless: true,
            }
        })
        .collect()
}

fn assign(experiment: &Experiment, visitor: &VisitorFacts) -> Assignment {
    let kind = experiment.experiment_type;
    if experiment.check().is_err() {
        return Assignment {
            cookieless: visitor.key.is_cookieless(),
            ..Assignment::defaults(&experiment.name, kind, ExperimentError::InvalidDefinition)
        };
    }
    let in_segment = experiment.segment.as_ref().is_none_or(|segment| {
        segment.matches(
            visitor.kind,
            visitor.member,
            visitor.device,
            &visitor.locale,
        )
    });
    let index = if in_segment {
        pick_variant(
            bucket(&experiment.name, visitor.key.id()),
            &experiment.weights(),
        )
    } else {
        Some(0)
    };
    // A checked definition has a positive total weight, so a variant is always picked.
    let variant = index
        .and_then(|index| experiment.variants.get(index))
        .map_or_else(String::new, |variant| variant.name.clone());
    Assignment {
        context: ExperimentContext {
            name: experiment.name.clone(),
            experiment_type: kind,
            variant,
            segment_name: experiment
                .segment
                .as_ref()
                .filter(|_| in_segment)
                .map(|segment| segment.name.clone()),
            contains_error: false,
        },
        error: None,
        exposed: in_segment,
        cookieless: visitor.key.is_cookieless(),
    }
}
