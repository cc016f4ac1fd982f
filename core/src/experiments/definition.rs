//! What the owner defines: experiments and feature toggles (001 s3: name, experimentType),
//! their weighted variants, an optional segment of visitors, the pages they apply to and what
//! each variant changes on them.
//!
//! Definitions are stored with the site's settings and read back unchecked, so a definition
//! that a later version would refuse is not lost; [`Experiment::check`] is the one validation,
//! run by the bundle importer (which refuses the bundle) and by every decision (which answers
//! the defaults with 'The specified feature has an invalid server-side definition').

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::site::{Block, BlockId};

/// The largest sum of a definition's weights, so `bucket * total` fits every language's
/// integers (a JavaScript number holds it exactly).
pub const MAX_TOTAL_WEIGHT: u32 = 1_000_000;
/// The longest experiment or variant name.
const MAX_NAME_LEN: usize = 64;

/// 001 s3: FEATURE_TOGGLE or AB_TEST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ExperimentType {
    FeatureToggle,
    AbTest,
}

impl ExperimentType {
    /// The name the specification and the page context use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FeatureToggle => "FEATURE_TOGGLE",
            Self::AbTest => "AB_TEST",
        }
    }
}

impl std::fmt::Display for ExperimentType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A visitor seen for the first time, or one who has been here before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VisitorKind {
    New,
    Returning,
}

/// The class of device a visitor browses with, told from its user agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceClass {
    Desktop,
    Tablet,
    Mobile,
}

impl DeviceClass {
    /// Tells the class from a `User-Agent` header: tablets first (an iPad, or Android without
    /// "Mobile"), then phones, everything else a desktop.
    pub fn from_user_agent(agent: &str) -> Self {
        let has = |needle: &str| agent.contains(needle);
        if has("iPad") || has("Tablet") || (has("Android") && !has("Mobile")) {
            Self::Tablet
        } else if has("Mobi") || has("iPhone") || has("Android") {
            Self::Mobile
        } else {
            Self::Desktop
        }
    }
}

/// The visitors an experiment is run on; a field left out matches everyone. Visitors outside
/// the segment see the first variant and are not counted as exposed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// The `segmentName` of the experiment context.
    pub name: String,
    pub visitor: Option<VisitorKind>,
    /// Signed-in site users (true) or everyone else (false).
    pub member: Option<bool>,
    pub device: Option<DeviceClass>,
    /// A language tag or its prefix: `pt` matches `pt-PT` and `pt-BR`.
    pub locale: Option<String>,
}

impl Segment {
    /// Whether a visitor with these traits belongs to the segment.
    pub fn matches(
        &self,
        visitor: VisitorKind,
        member: bool,
        device: DeviceClass,
        locale: &str,
    ) -> bool {
        self.visitor.is_none_or(|wanted| wanted == visitor)
            && self.member.is_none_or(|wanted| wanted == member)
            && self.device.is_none_or(|wanted| wanted == device)
            && self
                .locale
                .as_deref()
                .is_none_or(|wanted| locale_matches(wanted, locale))
    }
}

/// `pt` matches `pt`, `pt-PT` and `PT-br`, not `ptx`.
fn locale_matches(wanted: &str, locale: &str) -> bool {
    let wanted = wanted.to_ascii_lowercase();
    let locale = locale.to_ascii_lowercase().replace('_', "-");
    locale == wanted
        || locale
            .strip_prefix(&wanted)
            .is_some_and(|rest| rest.starts_with('-'))
}

/// What a variant changes on the experiment's pages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockChange {
    /// The block with this block's id is shown as this block instead.
    Replace(Block),
    /// The block with this id is left out.
    Hide(BlockId),
}

/// One variant and its share of the visitors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    pub weight: u32,
    #[serde(default)]
    pub changes: Vec<BlockChange>,
}

/// An experiment or a feature toggle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Experiment {
    pub name: String,
    pub experiment_type: ExperimentType,
    /// In order; the first is the control, shown to visitors outside the segment.
    pub variants: Vec<Variant>,
    pub segment: Option<Segment>,
    /// The site paths it applies to; empty for every page.
    #[serde(default)]
    pub pages: Vec<String>,
}

/// Why a definition is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DefinitionError {
    #[error("the name {0:?} must be 1 to 64 lowercase letters, digits, '-', '_' or '.'")]
    BadName(String),
    #[error("it needs at least one variant")]
    NoVariants,
    #[error("the variant name {0:?} must be 1 to 64 characters without control characters")]
    BadVariantName(String),
    #[error("the variant {0:?} is defined twice")]
    DuplicateVariant(String),
    #[error("a feature toggle's variants are \"true\" and \"false\", not {0:?}")]
    ToggleVariant(String),
    #[error("the weights must add up to between 1 and {MAX_TOTAL_WEIGHT}, not {0}")]
    Weights(u64),
    #[error("the page {0:?} must be a site path starting with '/'")]
    BadPage(String),
    #[error("the segment needs a name of 1 to 64 characters")]
    BadSegmentName,
    #[error("the experiment {0:?} is defined twice")]
    DuplicateExperiment(String),
}

impl Experiment {
    /// Every rule a definition must follow before it can decide anything.
    pub fn check(&self) -> Result<(), DefinitionError> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= MAX_NAME_LEN
            && self.name.chars().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.')
            });
        if !name_ok {
            return Err(DefinitionError::BadName(self.name.clone()));
        }
        if self.variants.is_empty() {
            return Err(DefinitionError::NoVariants);
        }
        for (index, variant) in self.variants.iter().enumerate() {
            let name = &variant.name;
            if name.is_empty()
                || name.chars().count() > MAX_NAME_LEN
                || name.chars().any(char::is_control)
            {
                return Err(DefinitionError::BadVariantName(name.clone()));
            }
            if self.variants[..index]
                .iter()
                .any(|earlier| &earlier.name == name)
            {
                return Err(DefinitionError::DuplicateVariant(name.clone()));
            }
            if self.experiment_type == ExperimentType::FeatureToggle
                && name != "true"
                && name != "false"
            {
                return Err(DefinitionError::ToggleVariant(name.clone()));
            }
        }
        let total: u64 = self.variants.iter().map(|v| u64::from(v.weight)).sum();
        if total == 0 || total > u64::from(MAX_TOTAL_WEIGHT) {
            return Err(DefinitionError::Weights(total));
        }
        if let Some(page) = self.pages.iter().find(|page| !page.starts_with('/')) {
            return Err(DefinitionError::BadPage(page.clone()));
        }
        if let Some(segment) = &self.segment
            && (segment.name.is_empty() || segment.name.chars().count() > MAX_NAME_LEN)
        {
            return Err(DefinitionError::BadSegmentName);
        }
        Ok(())
    }

    /// The weights in variant order, for [`pick_variant`](super::pick_variant).
    pub fn weights(&self) -> Vec<u32> {
        self.variants.iter().map(|variant| variant.weight).collect()
    }

    /// Whether it applies on the page at `path`.
    pub fn applies_to(&self, path: &str) -> bool {
        self.pages.is_empty() || self.pages.iter().any(|page| page == path)
    }
}

/// The site's experiments, as stored with its settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Experiments(pub Vec<Experiment>);

impl Experiments {
    /// Whether any experiment applies on the page at `path`: its visitors each see their
    /// variant, so the page is no longer the same for everyone.
    pub fn any_applies_to(&self, path: &str) -> bool {
        self.iter().any(|experiment| experiment.applies_to(path))
    }

    /// Checks every definition and that no name is used twice, naming the first one at fault.
    pub fn check(&self) -> Result<(), (String, DefinitionError)> {
        for (index, experiment) in self.0.iter().enumerate() {
            experiment
                .check()
                .map_err(|error| (experiment.name.clone(), error))?;
            if self.0[..index]
                .iter()
                .any(|earlier| earlier.name == experiment.name)
            {
                return Err((
                    experiment.name.clone(),
                    DefinitionError::DuplicateExperiment(experiment.name.clone()),
                ));
            }
        }
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&Experiment> {
        self.0.iter().find(|experiment| experiment.name == name)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Experiment> {
        self.0.iter()
    }
}
