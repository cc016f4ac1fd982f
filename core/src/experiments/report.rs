//! The owner's figures per experiment and variant: visitors exposed, conversions (a form
//! submission or an order after an exposure) and the difference of each variant's conversion
//! rate from the control's with a 95 % confidence interval.
//!
//! The interval is the normal approximation for the difference of two proportions (Wald,
//! unpooled): `d = p_v - p_c`, `se = sqrt(p_v (1 - p_v) / n_v + p_c (1 - p_c) / n_c)`, and
//! `d ± 1.959964 se`. It is written out rather than taken from a statistics crate because it is
//! this one formula; it is fair when each variant has at least a few dozen visitors and a few
//! conversions, and optimistic below that, which the report's readers should know. Visitors
//! counted by the cookieless daily key count once per day, so figures that hold them are
//! estimates (the report marks them).

use serde::Serialize;

use super::definition::Experiments;
use crate::analytics::ExposureCount;

/// The standard normal quantile of 97.5 %: a two-sided 95 % interval.
pub const CONFIDENCE_Z: f64 = 1.959_964;

/// The subject an exposure row is stored under: `experiment=variant` (an experiment's name
/// holds no `=`).
pub fn exposure_subject(experiment: &str, variant: &str) -> String {
    format!("{experiment}={variant}")
}

/// One variant's line of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExperimentFigures {
    pub experiment: String,
    pub variant: String,
    pub visitors: u64,
    /// Of the visitors, those bucketed by the cookieless daily key (counted once per day).
    pub cookieless_visitors: u64,
    pub conversions: u64,
    pub conversion_rate: Option<f64>,
    /// Against the control (the definition's first variant); none for the control itself, for
    /// an experiment no longer defined, and while either side has no visitors.
    pub difference: Option<RateDifference>,
}

/// A variant's conversion rate minus the control's, as fractions, with its 95 % interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateDifference {
    pub against: String,
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

/// The difference of two conversion rates with its 95 % interval; none without visitors.
pub fn rate_difference(variant: (u64, u64), control: (u64, u64)) -> Option<(f64, f64, f64)> {
    let rate = |(visitors, conversions): (u64, u64)| {
        (visitors > 0).then(|| (conversions as f64 / visitors as f64, visitors as f64))
    };
    let (p_v, n_v) = rate(variant)?;
    let (p_c, n_c) = rate(control)?;
    let difference = p_v - p_c;
    let se = (p_v * (1.0 - p_v) / n_v + p_c * (1.0 - p_c) / n_c).sqrt();
    Some((
        difference,
        difference - CONFIDENCE_Z * se,
        difference + CONFIDENCE_Z * se,
    ))
}

/// The report's lines: defined experiments first, their variants in definition order (a
/// variant nobody saw shows with zeros), then what was recorded of experiments since removed.
pub fn experiment_figures(
    counts: &[ExposureCount],
    experiments: &Experiments,
) -> Vec<ExperimentFigures> {
    let count_of = |subject: &str| counts.iter().find(|count| count.subject == subject);
    let mut figures = Vec::new();
    for experiment in experiments.iter() {
        let control = experiment.variants.first().map(|variant| {
            let count = count_of(&exposure_subject(&experiment.name, &variant.name));
            (
                variant.name.clone(),
                count.map_or((0, 0), |count| (count.visitors, count.converted)),
            )
        });
        for (index, variant) in experiment.variants.iter().enumerate() {
            let count = count_of(&exposure_subject(&experiment.name, &variant.name));
            let own = count.map_or((0, 0), |count| (count.visitors, count.converted));
            let difference =
                control
                    .as_ref()
                    .filter(|_| index > 0)
                    .and_then(|(against, control)| {
                        let (difference, low, high) = rate_difference(own, *control)?;
                        Some(RateDifference {
                            against: against.clone(),
                            difference,
                            low,
                            high,
                        })
                    });
            figures.push(line(&experiment.name, &variant.name, count, difference));
        }
    }
    for count in counts {
        let Some((experiment, variant)) = count.subject.split_once('=') else {
            continue;
        };
        if experiments.get(experiment).is_none() {
            figures.push(line(experiment, variant, Some(count), None));
        }
    }
    figures
}

fn line(
    experiment: &str,
    variant: &str,
    count: Option<&ExposureCount>,
    difference: Option<RateDifference>,
) -> ExperimentFigures {
    let (visitors, cookieless_visitors, conversions) = count.map_or((0, 0, 0), |count| {
        (count.visitors, count.cookieless_visitors, count.converted)
    });
    ExperimentFigures {
        experiment: experiment.to_owned(),
        variant: variant.to_owned(),
        visitors,
        cookieless_visitors,
        conversions,
        conversion_rate: (visitors > 0).then(|| conversions as f64 / visitors as f64),
        difference,
    }
}
