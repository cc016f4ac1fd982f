//! The type of a block a plugin renders: one of the specification's types (chart, 62), or a
//! new custom type that has a name only (event summary, opening hours).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::enums::BlockType;

/// A block type a plugin can claim.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PluginBlockType {
    /// A type of the specification, known by its code.
    Spec(BlockType),
    /// A custom type, known by the name its plugin's manifest gives it.
    Custom(String),
}

/// Why a custom block type name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a custom block type name has 1 to 60 letters, digits, spaces or hyphens, starting with a letter, found {0:?}"
)]
pub struct InvalidTypeName(pub String);

impl PluginBlockType {
    /// The type with this name: the specification's type when the name is one of its names
    /// (`chart` is 62), otherwise a custom type. Names are compared without regard to case.
    pub fn from_name(name: &str) -> Result<Self, InvalidTypeName> {
        let name = name.trim();
        if let Some(spec) = BlockType::ALL
            .iter()
            .find(|spec| spec.spec_name().eq_ignore_ascii_case(name))
        {
            return Ok(Self::Spec(*spec));
        }
        let valid = name.len() <= 60
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-');
        if !valid {
            return Err(InvalidTypeName(name.to_owned()));
        }
        Ok(Self::Custom(name.to_ascii_lowercase()))
    }

    /// The specification's code, or 0 for a custom type (as the plugin contract says).
    pub fn code(&self) -> u16 {
        match self {
            Self::Spec(spec) => spec.code(),
            Self::Custom(_) => 0,
        }
    }

    /// The type's name: the specification's (`tour dates`) or the custom one.
    pub fn name(&self) -> &str {
        match self {
            Self::Spec(spec) => spec.spec_name(),
            Self::Custom(name) => name,
        }
    }
}

impl From<BlockType> for PluginBlockType {
    fn from(spec: BlockType) -> Self {
        Self::Spec(spec)
    }
}

impl fmt::Display for PluginBlockType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Spec(spec) => write!(f, "{spec}"),
            Self::Custom(name) => write!(f, "{name} (custom)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specifications_names_are_its_types_and_others_are_custom() {
        assert_eq!(
            PluginBlockType::from_name("Tour Dates"),
            Ok(PluginBlockType::Spec(BlockType::TourDates))
        );
        let custom = PluginBlockType::from_name("Event summary").unwrap();
        assert_eq!(custom, PluginBlockType::Custom("event summary".to_owned()));
        assert_eq!(custom.code(), 0);
        assert_eq!(custom.name(), "event summary");
        for bad in ["", "1st", "<script>", "a\"b", &"x".repeat(61)] {
            assert!(PluginBlockType::from_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn stored_types_are_a_code_or_a_name() {
        let types = [
            PluginBlockType::Spec(BlockType::Chart),
            PluginBlockType::Custom("event summary".to_owned()),
        ];
        let json = serde_json::to_string(&types).unwrap();
        assert_eq!(json, r#"[62,"event summary"]"#);
        assert_eq!(
            serde_json::from_str::<Vec<PluginBlockType>>(&json).unwrap(),
            types
        );
    }
}
