//! Images and other files a site serves from its own storage.

use serde::{Deserialize, Serialize};

/// Where a page refers to an image, with what it needs to lay it out before it loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaRef {
    /// A site path under `/media/`, e.g. `/media/tote-bag.webp`.
    pub path: String,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// The bytes of a stored file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFile {
    pub path: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// The URL prefix under which media files are served.
pub const MEDIA_PREFIX: &str = "/media/";
