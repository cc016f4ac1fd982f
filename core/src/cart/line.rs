//! Cart lines and how a call names one. A line is a variant with the shopper's answers to its
//! product's form: the same variant with other answers (another name to engrave) is another
//! line, so a line's id is its SKU when it has no answers and its SKU with the answers'
//! fingerprint (`SKU~0123456789abcdef`) when it has some.

use std::fmt;

use super::entry::{CartEntry, MAX_LINE_QUANTITY};
use super::ids::CartIdError;
use super::state::{CartError, CartState};
use super::warning::CartWarning;
use crate::catalog::{FormAnswers, Sku};

/// What a cart call names a line by: a line's id, or a SKU, which names the only line of that
/// variant (so carts and clients from before product forms keep working).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(String);

impl LineId {
    /// A SKU of at most 60 characters, `~` and 16 hex digits fit well inside this.
    pub const MAX_LEN: usize = 128;

    pub fn parse(value: impl Into<String>) -> Result<Self, CartIdError> {
        let value = value.into();
        let shape_ok = !value.trim().is_empty()
            && value.len() <= Self::MAX_LEN
            && !value.chars().any(char::is_control);
        if shape_ok {
            Ok(Self(value))
        } else {
            Err(CartIdError::InvalidLine)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&Sku> for LineId {
    fn from(sku: &Sku) -> Self {
        Self(sku.as_str().to_owned())
    }
}

impl From<&LineId> for LineId {
    fn from(line: &LineId) -> Self {
        line.clone()
    }
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl CartEntry {
    /// This line's id: its SKU, followed by `~` and the answers' fingerprint when it has
    /// answers.
    pub fn line_id(&self) -> LineId {
        match self.answers.as_ref().filter(|answers| !answers.is_empty()) {
            Some(answers) => LineId(format!("{}~{}", self.sku.as_str(), answers.fingerprint())),
            None => LineId::from(&self.sku),
        }
    }

    /// Whether this line holds `answers` (no answers and an empty form read alike).
    pub(super) fn answers_same_as(&self, answers: Option<&FormAnswers>) -> bool {
        let empty = FormAnswers::default();
        self.answers
            .as_ref()
            .unwrap_or(&empty)
            .same_as(answers.unwrap_or(&empty))
    }
}

/// Units per SKU over lines, in the order SKUs first appear: several lines of one variant
/// take its stock together.
pub fn units_by_sku<'a>(lines: impl IntoIterator<Item = (&'a Sku, u32)>) -> Vec<(Sku, u32)> {
    let mut units: Vec<(Sku, u32)> = Vec::new();
    for (sku, quantity) in lines {
        match units.iter_mut().find(|(seen, _)| seen == sku) {
            Some((_, total)) => *total = total.saturating_add(quantity),
            None => units.push((sku.clone(), quantity)),
        }
    }
    units
}

impl CartState {
    /// The line `line` names: the line with that id, or else the only line of the SKU it
    /// spells. A SKU with several lines names none of them, so a call never changes a line
    /// the shopper did not mean.
    pub fn line(&self, line: &LineId) -> Result<&CartEntry, CartError> {
        self.line_index(line).map(|index| &self.entries[index])
    }

    pub(super) fn line_index(&self, line: &LineId) -> Result<usize, CartError> {
        if let Some(index) = self
            .entries
            .iter()
            .position(|entry| entry.line_id() == *line)
        {
            return Ok(index);
        }
        let Ok(sku) = Sku::parse(line.as_str()) else {
            return Err(CartError::LineNotInCart(line.clone()));
        };
        let mut of_sku = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.sku == sku);
        match (of_sku.next(), of_sku.next()) {
            (Some((index, _)), None) => Ok(index),
            (Some(_), Some(_)) => Err(CartError::AmbiguousLine(sku)),
            (None, _) => Err(CartError::NotInCart(sku)),
        }
    }

    /// Units of every SKU in the cart, for holding stock at checkout.
    pub fn units_by_sku(&self) -> Vec<(Sku, u32)> {
        units_by_sku(
            self.entries
                .iter()
                .map(|entry| (&entry.sku, entry.quantity)),
        )
    }

    /// Replaces a line's answers to its product's form. When another line of the variant
    /// already has these answers the two become one line (at most the line limit, with a
    /// warning when that keeps fewer units), since they are now the same thing.
    pub fn update_answers(
        &mut self,
        line: impl Into<LineId>,
        answers: FormAnswers,
    ) -> Result<Vec<CartWarning>, CartError> {
        self.ensure_open()?;
        let index = self.line_index(&line.into())?;
        let sku = &self.entries[index].sku;
        let twin = (0..self.entries.len()).find(|&other| {
            let entry = &self.entries[other];
            other != index && &entry.sku == sku && entry.answers_same_as(Some(&answers))
        });
        let Some(twin) = twin else {
            self.entries[index].answers = Some(answers);
            return Ok(Vec::new());
        };
        let edited = self.entries.remove(index);
        let twin = if twin > index { twin - 1 } else { twin };
        let kept = &mut self.entries[twin];
        let wanted = kept.quantity.saturating_add(edited.quantity);
        kept.quantity = wanted.min(MAX_LINE_QUANTITY);
        kept.answers = Some(answers);
        if kept.quantity < wanted {
            let total = self.quantity_of(&edited.sku);
            return Ok(vec![CartWarning::quantity_reduced(
                edited.sku.as_str(),
                total,
            )]);
        }
        Ok(Vec::new())
    }
}
