//! The imports a plugin may call, each behind a capability its manifest must declare, and the
//! per-render state they read.

use std::sync::Arc;

use vitrine_core::money::Currency;
use vitrine_core::money::{FormatOptions, Locale, Money, format};

use crate::bindings::vitrine::block::{collections, log, money, types};
use crate::limiter::RenderLimiter;

/// An item of another collection, as the `collections` capability hands it to a plugin.
pub use types::CollectionItem;

/// Where the `collections` capability reads items. The composition root supplies one backed
/// by the site's published content; it must answer from memory, since renders are synchronous.
pub trait CollectionItems: Send + Sync {
    /// At most `limit` published items of the collection, newest first.
    fn items(&self, collection_id: &str, limit: u32) -> Vec<CollectionItem>;

    /// At most `limit` published items of the collection dated today or later, soonest first.
    fn upcoming(&self, collection_id: &str, limit: u32) -> Vec<CollectionItem>;

    /// A number that changes whenever the items change.
    fn version(&self) -> u64 {
        0
    }
}

/// A source with no collections, for sites or tests without summary-style plugin blocks.
#[derive(Debug, Default)]
pub struct NoCollections;

impl CollectionItems for NoCollections {
    fn items(&self, _collection_id: &str, _limit: u32) -> Vec<CollectionItem> {
        Vec::new()
    }

    fn upcoming(&self, _collection_id: &str, _limit: u32) -> Vec<CollectionItem> {
        Vec::new()
    }
}

/// What one render's store holds: its limits and what the capabilities need.
pub(crate) struct RenderState {
    pub(crate) plugin: Arc<str>,
    pub(crate) limiter: RenderLimiter,
    pub(crate) locale: Locale,
    pub(crate) currency: Currency,
    pub(crate) collections: Arc<dyn CollectionItems>,
}

impl types::Host for RenderState {}

impl log::Host for RenderState {
    fn write(&mut self, level: log::Level, message: String) {
        // A plugin's log line is bounded so a chatty plugin cannot flood the server's log.
        let message: String = message.chars().take(1_000).collect();
        let plugin = &*self.plugin;
        match level {
            log::Level::Debug => tracing::debug!(plugin, "{message}"),
            log::Level::Info => tracing::info!(plugin, "{message}"),
            log::Level::Warn => tracing::warn!(plugin, "{message}"),
            log::Level::Error => tracing::error!(plugin, "{message}"),
        }
    }
}

impl money::Host for RenderState {
    fn format(&mut self, minor_units: i64) -> String {
        format(
            Money::new(minor_units, self.currency),
            &self.locale,
            FormatOptions::default(),
        )
    }
}

impl collections::Host for RenderState {
    fn items(&mut self, collection_id: String, limit: u32) -> Vec<CollectionItem> {
        // At most 50 items, so the answer stays small whatever the plugin asks for.
        self.collections.items(&collection_id, limit.min(50))
    }

    fn upcoming(&mut self, collection_id: String, limit: u32) -> Vec<CollectionItem> {
        self.collections.upcoming(&collection_id, limit.min(50))
    }
}
