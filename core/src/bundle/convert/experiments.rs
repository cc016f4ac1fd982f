//! `[[experiments]]` of `site.toml` into the site's [`Experiments`]: each definition checked by
//! the core's one rule, and every block a variant hides or replaces known to be on a page, so
//! a typo in an id is reported rather than silently changing nothing.

use crate::bundle::BundleError;
use crate::bundle::convert::{Converter, chosen_id};
use crate::bundle::dto::{ExperimentDto, ExperimentVariantDto, SegmentDto};
use crate::bundle::error::At;
use crate::bundle::files::SITE_FILE;
use crate::experiments::{BlockChange, Experiment, Experiments, Segment, Variant};
use crate::site::{Block, BlockId};

/// Block types a variant may show in place of another: those that need nothing resolved
/// beyond themselves (no listed items, products or forms).
const REPLACEMENT_TYPES: [&str; 8] = [
    "html",
    "markdown",
    "heading",
    "image",
    "button",
    "quote",
    "spacer",
    "horizontal-rule",
];

impl Converter {
    pub(crate) fn experiments(
        &mut self,
        dtos: Vec<ExperimentDto>,
    ) -> Result<Experiments, BundleError> {
        let root = At::root(SITE_FILE).field("experiments");
        let mut experiments = Vec::new();
        for (index, dto) in dtos.into_iter().enumerate() {
            let at = root.index(index);
            let experiment = self.experiment(&at, dto)?;
            experiment
                .check()
                .map_err(|error| at.error(error.to_string()))?;
            experiments.push(experiment);
        }
        let experiments = Experiments(experiments);
        experiments
            .check()
            .map_err(|(name, error)| root.error(format!("experiment {name:?}: {error}")))?;
        Ok(experiments)
    }

    fn experiment(&mut self, at: &At, dto: ExperimentDto) -> Result<Experiment, BundleError> {
        let mut variants = Vec::new();
        for (index, variant) in dto.variants.into_iter().enumerate() {
            variants.push(self.variant(&at.field("variants").index(index), variant)?);
        }
        Ok(Experiment {
            name: dto.name,
            experiment_type: dto.experiment_type,
            variants,
            segment: dto.segment.map(segment),
            pages: dto.pages,
        })
    }

    fn variant(&mut self, at: &At, dto: ExperimentVariantDto) -> Result<Variant, BundleError> {
        let mut changes = Vec::new();
        for (index, id) in dto.hide.iter().enumerate() {
            let at = at.field("hide").index(index);
            let id: BlockId = chosen_id(at.clone(), Some(id), "")?;
            self.known_block(&at, &id)?;
            changes.push(BlockChange::Hide(id));
        }
        for (index, table) in dto.replace.into_iter().enumerate() {
            let at = at.field("replace").index(index);
            changes.push(BlockChange::Replace(self.replacement(&at, table)?));
        }
        Ok(Variant {
            name: dto.name,
            weight: dto.weight,
            changes,
        })
    }

    /// A block shown in place of the block with its `id`.
    fn replacement(&mut self, at: &At, mut table: toml::Table) -> Result<Block, BundleError> {
        let id = match table.get("id") {
            Some(toml::Value::String(id)) => id.clone(),
            Some(_) | None => {
                return Err(at
                    .field("id")
                    .error("expected the id of the block this one replaces"));
            }
        };
        let kind = match table.get("type") {
            Some(toml::Value::String(kind)) => kind.clone(),
            _ => String::new(),
        };
        if !REPLACEMENT_TYPES.contains(&kind.as_str()) {
            return Err(at.field("type").error(format!(
                "a variant can show one of {} in place of a block, not {kind:?}",
                REPLACEMENT_TYPES.join(", ")
            )));
        }
        let id: BlockId = chosen_id(at.field("id"), Some(&id), "")?;
        self.known_block(&at.field("id"), &id)?;
        table.remove("id");
        table.remove("type");
        let content = self.content(at, &kind, toml::Value::Table(table), &id)?;
        Ok(Block { id, content })
    }

    fn known_block(&self, at: &At, id: &BlockId) -> Result<(), BundleError> {
        if self.origins.has_block(id) {
            Ok(())
        } else {
            Err(at.error(format!(
                "no page of the bundle has a block with the id '{id}'"
            )))
        }
    }
}

fn segment(dto: SegmentDto) -> Segment {
    Segment {
        name: dto.name,
        visitor: dto.visitor,
        member: dto.member,
        device: dto.device,
        locale: dto.locale,
    }
}
