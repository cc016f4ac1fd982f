//! Block plugins as WebAssembly components: the wasmtime host that implements the core's
//! block-renderer port ([`vitrine_core::plugins::BlockRenderer`]).
//!
//! One [`wasmtime::Engine`] serves every plugin. Each component is compiled once, cached on
//! disk under its content hash, and pre-linked ([`wasmtime::component::InstancePre`]); every
//! render gets a fresh [`wasmtime::Store`] from the pooling allocator, so nothing a plugin
//! computes for one visitor is visible to the next. Time (fuel, with a wall-clock epoch
//! deadline behind it), memory, tables, input and output are limited; a plugin that fails is
//! logged, counted and, after [`FAILURE_THRESHOLD`] failures of its own in a row, disabled for
//! [`COOL_DOWN`]. Its HTML is sanitised before it leaves the host.

mod bindings;
mod cache;
mod capabilities;
mod directory;
mod host;
mod limiter;
pub mod limits;
mod loaded;
pub mod manifest;

pub use capabilities::{CollectionItem, CollectionItems, NoCollections};
pub use directory::PluginDirectory;
pub use host::{
    COOL_DOWN, Clock, FAILURE_THRESHOLD, LoadError, PluginHost, PluginStatus, RENDER_DEADLINE_TICKS,
};
pub use limits::Limits;
pub use loaded::RenderStats;
pub use manifest::Manifest;
