//! `plugin.toml`: what a plugin is, which block types it renders, what it may do and its limits.

use serde::Deserialize;
use thiserror::Error;

use crate::limits::{LimitOverrides, Limits};

/// A plugin's manifest, read from the `plugin.toml` beside its component.
///
/// Unknown fields are refused, so a misspelt capability or limit is an error at load rather
/// than a silent default.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    pub version: String,
    #[serde(default)]
    pub description: String,
    /// The component's file name, relative to the manifest.
    pub component: String,
    pub blocks: Vec<BlockClaim>,
    #[serde(default)]
    pub capabilities: Capabilities,
    #[serde(default)]
    pub limits: LimitOverrides,
}

/// A block type the plugin renders: by the specification's name and, for the specification's
/// own types, its numeric code (62 for chart). Custom types have a name only.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockClaim {
    pub name: String,
    pub code: Option<u16>,
}

/// The capabilities a plugin asks for, each with the one-line reason shown to the site's owner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capabilities {
    pub log: Option<String>,
    pub money: Option<String>,
    pub collections: Option<String>,
}

/// A capability of the contract, as its WIT interface names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    Log,
    Money,
    Collections,
}

impl Capability {
    /// Recognises the contract's interface names, such as `vitrine:block/log@0.1.0`.
    pub fn from_import(import: &str) -> Option<Self> {
        let interface = import.strip_prefix("vitrine:block/")?;
        let interface = interface.split('@').next().unwrap_or(interface);
        match interface {
            "log" => Some(Self::Log),
            "money" => Some(Self::Money),
            "collections" => Some(Self::Collections),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Log => "log",
            Self::Money => "money",
            Self::Collections => "collections",
        }
    }
}

impl Capabilities {
    pub fn grants(&self, capability: Capability) -> bool {
        match capability {
            Capability::Log => self.log.is_some(),
            Capability::Money => self.money.is_some(),
            Capability::Collections => self.collections.is_some(),
        }
    }
}

#[derive(Debug, Error, PartialEq)]
pub enum ManifestError {
    #[error("plugin.toml is not valid: {0}")]
    Syntax(String),
    #[error("plugin.toml must name the plugin")]
    MissingName,
    #[error("plugin {plugin} claims no block types")]
    NoBlocks { plugin: String },
    #[error("plugin {plugin} gives no reason for the {capability} capability")]
    MissingReason {
        plugin: String,
        capability: &'static str,
    },
    #[error("plugin {plugin}: {reason}")]
    Limits { plugin: String, reason: String },
}

impl Manifest {
    pub fn parse(text: &str) -> Result<Self, ManifestError> {
        let manifest: Self =
            toml::from_str(text).map_err(|error| ManifestError::Syntax(error.to_string()))?;
        if manifest.name.trim().is_empty() {
            return Err(ManifestError::MissingName);
        }
        if manifest.blocks.is_empty() {
            return Err(ManifestError::NoBlocks {
                plugin: manifest.name,
            });
        }
        let reasons = [
            (Capability::Log, &manifest.capabilities.log),
            (Capability::Money, &manifest.capabilities.money),
            (Capability::Collections, &manifest.capabilities.collections),
        ];
        for (capability, reason) in reasons {
            if reason
                .as_ref()
                .is_some_and(|reason| reason.trim().is_empty())
            {
                return Err(ManifestError::MissingReason {
                    plugin: manifest.name.clone(),
                    capability: capability.name(),
                });
            }
        }
        manifest.limits().map_err(|reason| ManifestError::Limits {
            plugin: manifest.name.clone(),
            reason,
        })?;
        Ok(manifest)
    }

    /// The defaults with this plugin's overrides applied; an override above the ceiling is an
    /// error that names it.
    pub fn limits(&self) -> Result<Limits, String> {
        Limits::default().with_overrides(&self.limits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHART: &str = r#"
name = "chart"
version = "0.1.0"
component = "chart.wasm"

[[blocks]]
name = "chart"
code = 62

[capabilities]
log = "Reports skipped values."

[limits]
memory_bytes = 4_000_000
"#;

    #[test]
    fn a_manifest_with_blocks_capabilities_and_limits_parses() {
        let manifest = Manifest::parse(CHART).unwrap();
        assert_eq!(
            manifest.blocks,
            vec![BlockClaim {
                name: "chart".into(),
                code: Some(62)
            }]
        );
        assert!(manifest.capabilities.grants(Capability::Log));
        assert!(!manifest.capabilities.grants(Capability::Collections));
        assert_eq!(manifest.limits().unwrap().memory_bytes, 4_000_000);
    }

    #[test]
    fn unknown_fields_and_capabilities_are_refused() {
        let typo = CHART.replace("version", "verison");
        assert!(matches!(
            Manifest::parse(&typo),
            Err(ManifestError::Syntax(_))
        ));
        let network = CHART.replace("log = ", "network = ");
        let error = Manifest::parse(&network).unwrap_err().to_string();
        assert!(error.contains("network"), "{error}");
    }

    #[test]
    fn a_capability_needs_a_reason_and_limits_stay_under_the_ceiling() {
        let no_reason = CHART.replace("\"Reports skipped values.\"", "\"  \"");
        assert_eq!(
            Manifest::parse(&no_reason),
            Err(ManifestError::MissingReason {
                plugin: "chart".into(),
                capability: "log"
            })
        );
        let greedy = CHART.replace("4_000_000", "4_000_000_000");
        assert!(matches!(
            Manifest::parse(&greedy),
            Err(ManifestError::Limits { .. })
        ));
    }

    #[test]
    fn contract_imports_map_to_capabilities() {
        assert_eq!(
            Capability::from_import("vitrine:block/money@0.1.0"),
            Some(Capability::Money)
        );
        assert_eq!(Capability::from_import("vitrine:block/types@0.1.0"), None);
        assert_eq!(Capability::from_import("wasi:cli/environment@0.2.0"), None);
    }
}
