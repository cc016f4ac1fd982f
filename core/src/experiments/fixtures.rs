//! Definitions and visitors the core's tests, the property tests and the bucketing benchmark
//! share (feature `test-support`).

use super::bucketing::VisitorKey;
use super::decision::VisitorFacts;
use super::definition::{
    DeviceClass, Experiment, ExperimentType, Experiments, Variant, VisitorKind,
};

/// A variant that changes nothing.
pub fn variant(name: &str, weight: u32) -> Variant {
    Variant {
        name: name.to_owned(),
        weight,
        changes: Vec::new(),
    }
}

/// An experiment on every page, without a segment.
pub fn experiment(
    name: &str,
    experiment_type: ExperimentType,
    variants: Vec<Variant>,
) -> Experiment {
    Experiment {
        name: name.to_owned(),
        experiment_type,
        variants,
        segment: None,
        pages: Vec::new(),
    }
}

/// The demo site's two experiments: the headline's A/B test and the free-shipping toggle.
pub fn demo_experiments() -> Experiments {
    Experiments(vec![
        experiment(
            "home-headline",
            ExperimentType::AbTest,
            vec![variant("control", 50), variant("warm", 50)],
        ),
        experiment(
            "free-shipping-note",
            ExperimentType::FeatureToggle,
            vec![variant("true", 100), variant("false", 0)],
        ),
    ])
}

/// A new visitor with a visitor cookie `id`, on a desktop, in en-US.
pub fn visitor(id: &str) -> VisitorFacts {
    VisitorFacts {
        key: VisitorKey::Cookie(id.to_owned()),
        kind: VisitorKind::New,
        member: false,
        device: DeviceClass::Desktop,
        locale: "en-US".to_owned(),
    }
}
