//! Images and other files a site serves from its own storage.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Where a page refers to an image, with what it needs to lay it out before it loads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MediaRef {
    /// A site path under `/media/`, e.g. `/media/tote-bag.webp`.
    pub path: String,
    pub alt: String,
    pub width: u32,
    pub height: u32,
    /// The file's [`content_hash`], written when the site is imported: image URLs carry it
    /// as `v=`, so a browser (or a CDN) may keep them for good and a changed file gets a new
    /// URL. None for content stored before versions existed; its URLs are revalidated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The bytes of a stored file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaFile {
    pub path: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// The first 16 hex digits of the SHA-256 of a file: its version in URLs, ETags and cache
/// keys. The importer writes it into each [`MediaRef`] and the image pipeline keys its
/// variants by it, so the two always agree.
pub fn content_hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..8])
}

/// The URL prefix under which media files are served.
pub const MEDIA_PREFIX: &str = "/media/";
