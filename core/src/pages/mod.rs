//! Published pages: resolving a URL path to what a visitor sees, with its page context.

pub mod access;
mod context;
mod service;

pub use context::*;
pub use service::{
    PageContent, PageError, PageService, PageView, ResolvedBlocks, ResolvedProduct, SitemapEntry,
    SummaryContent,
};

#[cfg(test)]
mod tests;
