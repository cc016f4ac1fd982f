//! Platform versions (001 §3: 7, 7.1 and 8). Unlike the other enumerations their codes are
//! text, because "7.1" is not an integer and a float would not compare reliably.

use std::fmt;

use super::{CodedEnum, WireCode};

/// A version of the site platform a template is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlatformVersion {
    V7,
    V7_1,
    V8,
}

/// A text that names no platform version.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a known PlatformVersion code (expected \"7\", \"7.1\" or \"8\")")]
pub struct UnknownPlatformVersion(pub String);

impl PlatformVersion {
    /// Every version, oldest first.
    pub const ALL: &'static [Self] = &[Self::V7, Self::V7_1, Self::V8];

    /// The version as the specification writes it.
    pub const fn code(self) -> &'static str {
        match self {
            Self::V7 => "7",
            Self::V7_1 => "7.1",
            Self::V8 => "8",
        }
    }

    /// Looks a version up by its text code.
    pub fn from_code(code: &str) -> Result<Self, UnknownPlatformVersion> {
        Self::ALL
            .iter()
            .copied()
            .find(|version| version.code() == code)
            .ok_or_else(|| UnknownPlatformVersion(code.to_owned()))
    }

    /// The stable variant name, identical to the key in the generated TypeScript.
    pub const fn name(self) -> &'static str {
        match self {
            Self::V7 => "V7",
            Self::V7_1 => "V7_1",
            Self::V8 => "V8",
        }
    }

    /// The specification's wording, which for versions is the code itself.
    pub const fn spec_name(self) -> &'static str {
        self.code()
    }
}

impl fmt::Display for PlatformVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for PlatformVersion {
    type Err = UnknownPlatformVersion;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        Self::from_code(code)
    }
}

impl serde::Serialize for PlatformVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for PlatformVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
        Self::from_code(&code).map_err(serde::de::Error::custom)
    }
}

impl CodedEnum for PlatformVersion {
    const ENUM_NAME: &'static str = "PlatformVersion";

    fn all() -> &'static [Self] {
        Self::ALL
    }

    fn name(self) -> &'static str {
        PlatformVersion::name(self)
    }

    fn spec_name(self) -> &'static str {
        PlatformVersion::spec_name(self)
    }

    fn wire_code(self) -> WireCode {
        WireCode::Text(self.code())
    }
}
