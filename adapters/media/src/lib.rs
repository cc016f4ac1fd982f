//! Vitrine's image pipeline: an original image's bytes in, one variant's bytes out. Hostile
//! files are refused from their header before any full-size allocation (`limits`); JPEGs are
//! scaled by 1/2, 1/4 or 1/8 while they decode (`decode`), then resampled with Lanczos3
//! (`resize`), turned upright by their EXIF orientation and into sRGB by their colour profile,
//! and encoded without metadata as WebP or in their own format (`encode`). `disk_cache` keeps
//! the results in the data directory, keyed by content hash, width and format.
//!
//! Nothing here knows about HTTP or the database: the HTTP adapter, the `media warm` command
//! and the benchmark all call [`render_variant`].

mod decode;
mod disk_cache;
mod encode;
mod error;
mod limits;
mod pipeline;
mod resize;
mod static_map;

pub use disk_cache::DiskCache;
pub use encode::OutputFormat;
pub use error::ImageError;
pub use limits::{ImageHeader, ImageLimits, SourceKind, read_header};
pub use pipeline::{Variant, VariantKey, content_hash, plan, render_variant};
pub use static_map::{StaticMapError, TileImage, draw_static_map};
