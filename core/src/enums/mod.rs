//! The specification's enumerations with their numeric codes (001 §3 "Enumerations", the
//! page-type table and cover types of 001 §2), declared once and shared with the web client
//! through `cargo xtask codegen`.
//!
//! Every numeric enumeration is declared with the `numeric_enum!` macro as
//! `(Variant, code, "spec name")` rows, serialises as its bare code, and is listed in
//! [`catalog`] so the TypeScript mirror can never miss one.

mod analytics;
mod commerce;
mod content;
mod layout;
mod macros;
mod page;
mod platform;
mod site;

use std::fmt;

pub use analytics::{AnalyticsEventType, OverlayKind};
pub use commerce::{ProductType, Unit};
pub use content::{BlockType, CollectionType, ItemStatus, ItemType};
pub use layout::{LayoutBreakpoint, MOBILE_MAX_WIDTH_PX};
pub use page::{CoverType, PageType};
pub use platform::{PlatformVersion, UnknownPlatformVersion};
pub use site::{ContributorRole, PermissionCode, PlanFeature, WebsiteStatus, WebsiteType};

/// A numeric code that names no value of the enumeration it was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{code} is not a known {enum_name} code")]
pub struct UnknownCode {
    /// The Rust name of the enumeration, such as `BlockType`.
    pub enum_name: &'static str,
    /// The code that was looked up.
    pub code: u16,
}

/// The wire form of one enumeration value: most are numbers, platform versions are text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireCode {
    Number(u16),
    Text(&'static str),
}

/// What every coded enumeration offers, so tools can walk all of them generically.
pub trait CodedEnum: Copy + Eq + fmt::Debug + fmt::Display + 'static {
    /// The Rust name of the enumeration, which is also its TypeScript name.
    const ENUM_NAME: &'static str;

    /// Every value, in the specification's order.
    fn all() -> &'static [Self];

    /// The stable variant name.
    fn name(self) -> &'static str;

    /// The specification's wording for the value.
    fn spec_name(self) -> &'static str;

    /// The code sent over the wire.
    fn wire_code(self) -> WireCode;
}

/// A coded enumeration whose codes are numbers.
pub trait NumericEnum: CodedEnum {
    fn code(self) -> u16;
    fn from_code(code: u16) -> Result<Self, UnknownCode>;
}

/// One value of an enumeration, as the code generator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantDescriptor {
    pub name: &'static str,
    pub spec_name: &'static str,
    pub code: WireCode,
}

/// One enumeration, as the code generator sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnumDescriptor {
    pub name: &'static str,
    pub variants: Vec<VariantDescriptor>,
}

/// Describes any coded enumeration.
pub fn describe<E: CodedEnum>() -> EnumDescriptor {
    EnumDescriptor {
        name: E::ENUM_NAME,
        variants: E::all()
            .iter()
            .map(|&value| VariantDescriptor {
                name: value.name(),
                spec_name: value.spec_name(),
                code: value.wire_code(),
            })
            .collect(),
    }
}

/// Every coded enumeration of the core, in a fixed order. The TypeScript mirror is generated
/// from this list, so an enumeration added above must be added here too (a test checks the
/// count against the `pub use` list).
pub fn catalog() -> Vec<EnumDescriptor> {
    vec![
        describe::<BlockType>(),
        describe::<CollectionType>(),
        describe::<ItemType>(),
        describe::<ItemStatus>(),
        describe::<ProductType>(),
        describe::<Unit>(),
        describe::<WebsiteStatus>(),
        describe::<WebsiteType>(),
        describe::<ContributorRole>(),
        describe::<PermissionCode>(),
        describe::<PlanFeature>(),
        describe::<PlatformVersion>(),
        describe::<PageType>(),
        describe::<CoverType>(),
        describe::<OverlayKind>(),
        describe::<AnalyticsEventType>(),
    ]
}

#[cfg(test)]
mod tests;
