//! Site bundles: a whole site as a folder of human-editable files, parsed, validated and
//! imported in one step.
//!
//! A bundle is a directory (see the format reference in `adapters/demo-site/README.md`):
//!
//! ```text
//! site.toml                         the website, its settings and navigation
//! collections/<slug>.toml           one per page, blog or shop
//! collections/<slug>/<item>.toml    an item (a post, a product) ...
//! collections/<slug>/<item>.md      ... or Markdown with TOML front matter between +++ lines
//! media/<file>                      images, served at /media/<file>
//! ```
//!
//! The core does no I/O, so a bundle arrives as [`BundleFiles`]: relative paths (with '/')
//! to bytes, read by the caller from a directory or from a copy embedded in the binary.
//! Parsing is all-or-nothing: the first problem is returned as a [`BundleError`] naming the
//! file, the field and what was expected, and nothing is imported.

mod convert;
mod dto;
mod error;
mod files;
mod media;
mod text;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

pub use error::BundleError;
pub use media::MAX_MEDIA_BYTES;

use crate::ports::{RepositoryError, SiteRepository};
use crate::site::Site;

/// A bundle's files: path relative to the bundle's root (with '/' separators) to contents.
pub type BundleFiles = BTreeMap<String, Vec<u8>>;

/// Parses and validates a bundle into a [`Site`], converting every file and checking every
/// reference. Nothing partial is ever returned.
pub fn parse(files: &BundleFiles) -> Result<Site, BundleError> {
    convert::parse(files)
}

/// What an import stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportSummary {
    pub collections: usize,
    pub items: usize,
    pub products: usize,
    pub media_files: usize,
    pub media_bytes: usize,
}

impl ImportSummary {
    pub fn of(site: &Site) -> Self {
        Self {
            collections: site.collections.len(),
            items: site.items.len(),
            products: site
                .items
                .iter()
                .filter(|item| item.product.is_some())
                .count(),
            media_files: site.media.len(),
            media_bytes: site.media.iter().map(|file| file.bytes.len()).sum(),
        }
    }
}

/// Why an import did not happen. In either case the repository is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the bundle is invalid: {0}")]
    Invalid(#[from] BundleError),
    #[error("the site could not be stored: {0}")]
    Repository(#[from] RepositoryError),
}

/// Parses and validates a bundle, then replaces the repository's site with it in one
/// transaction. A bad bundle imports nothing.
pub async fn import(
    files: &BundleFiles,
    repository: &dyn SiteRepository,
) -> Result<ImportSummary, ImportError> {
    let site = parse(files)?;
    repository.replace_site(&site).await?;
    Ok(ImportSummary::of(&site))
}
