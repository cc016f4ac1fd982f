//! The bundle's own file shapes (serde DTOs). They are not the core's types: each is converted
//! explicitly, so the files can stay friendly to edit while the model stays strict.

mod blocks;
mod content;
mod page_blocks;
mod site;

pub(crate) use blocks::*;
pub(crate) use content::*;
pub(crate) use page_blocks::*;
pub(crate) use site::*;

use serde::Deserialize;

/// An image placed in content: a media path and its alternative text. Width and height are
/// read from the file itself.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImageDto {
    pub src: String,
    pub alt: String,
}

/// Search-engine and sharing overrides.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeoDto {
    pub title: Option<String>,
    pub description: Option<String>,
    pub image: Option<ImageDto>,
}

/// A page body written as rows of columns; the alternative is a plain list of blocks.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RowDto {
    pub columns: Vec<ColumnDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ColumnDto {
    pub span: u8,
    #[serde(default)]
    pub blocks: Vec<toml::Table>,
}
