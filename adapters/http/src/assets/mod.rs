//! The web build (Vite's output) held in memory: hashed files served under `/assets/` with
//! precompressed copies, and the manifest that says which of them each page needs.

mod manifest;
mod serve;

use std::collections::{BTreeSet, HashMap};
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use axum::body::Bytes;

pub use manifest::{
    MAIN_ENTRY, Manifest, ManifestError, SITE_STYLESHEET_NAME, StartModule, island_entry,
};
pub(crate) use serve::serve_asset;

use crate::render::PageAssets;
use crate::shared::encoding::{self, Representations};

/// Where Vite writes its manifest, relative to the build directory.
pub const MANIFEST_PATH: &str = ".vite/manifest.json";
/// The build directory's folder of hashed files, served at `/assets/`.
pub const ASSETS_DIR: &str = "assets/";

/// One built file and its precompressed copies.
#[derive(Debug, Clone)]
pub(crate) struct Asset {
    pub(crate) content_type: String,
    pub(crate) body: Representations,
}

impl Asset {
    fn new(path: &str, bytes: Vec<u8>) -> Self {
        let bytes = Bytes::from(bytes);
        let body = if encoding::is_compressible(path) {
            Representations::compressed(bytes)
        } else {
            Representations::identity(bytes)
        };
        Self {
            content_type: content_type(path),
            body,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AssetError {
    #[error(transparent)]
    Manifest(#[from] ManifestError),
}

/// The web build, read once at start-up.
#[derive(Debug, Default)]
pub struct AssetStore {
    /// Files under `assets/`, keyed by their path in the build (`assets/main-1a2b.js`).
    files: HashMap<String, Asset>,
    manifest: Option<Manifest>,
    /// Set once the missing build has been logged, so the warning is not repeated per page.
    warned_missing_build: AtomicBool,
}

impl AssetStore {
    /// A store without a build: pages are served without scripts or styles.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Builds the store from the files of a build directory, given as (path relative to the
    /// directory, contents). Compresses every compressible asset now, once.
    pub fn from_files(files: Vec<(String, Vec<u8>)>) -> Result<Self, AssetError> {
        let mut manifest = None;
        let mut to_serve = Vec::new();
        for (path, bytes) in files {
            let path = normalise(&path);
            if path == MANIFEST_PATH {
                manifest = Some(Manifest::parse(&bytes)?);
            } else if path.starts_with(ASSETS_DIR) {
                to_serve.push((path, bytes));
            }
        }
        let assets = prepare_in_parallel(to_serve);
        if let Some(manifest) = &manifest {
            manifest.check_files(|file| assets.contains_key(&normalise(file)))?;
        }
        Ok(Self {
            files: assets,
            manifest,
            warned_missing_build: AtomicBool::new(false),
        })
    }

    /// True when there is a build manifest to link pages to.
    pub fn has_build(&self) -> bool {
        self.manifest.is_some()
    }

    /// How many files are served under `/assets/`.
    pub fn asset_count(&self) -> usize {
        self.files.len()
    }

    /// The stylesheets, scripts and preloads of a page with the given islands and modules the
    /// common script starts at once. Without a build the page gets none, and the first such page
    /// logs why.
    pub fn page_assets(&self, islands: &BTreeSet<&str>, started: &[StartModule]) -> PageAssets {
        match &self.manifest {
            Some(manifest) => manifest.page_assets(islands, started),
            None => {
                if !self.warned_missing_build.swap(true, Ordering::Relaxed) {
                    tracing::warn!(
                        "the web build is missing, so pages are served without scripts or styles; \
                         run `npm --prefix web run build` and rebuild the server"
                    );
                }
                PageAssets {
                    stylesheets: Vec::new(),
                    module_scripts: Vec::new(),
                    module_preloads: Vec::new(),
                }
            }
        }
    }

    /// The script and styles of a page built from its own entry (see
    /// [`Manifest::entry_assets`]); none without a build.
    pub fn entry_assets(&self, key: &str) -> PageAssets {
        self.manifest
            .as_ref()
            .map(|manifest| manifest.entry_assets(key))
            .unwrap_or(PageAssets {
                stylesheets: Vec::new(),
                module_scripts: Vec::new(),
                module_preloads: Vec::new(),
            })
    }

    /// The asset at a path relative to the build directory (`assets/main-1a2b.js`).
    pub(crate) fn get(&self, path: &str) -> Option<&Asset> {
        self.files.get(path)
    }
}

/// Compresses files on every core: brotli at its best setting takes a while on a large chunk,
/// and start-up waits for it.
fn prepare_in_parallel(files: Vec<(String, Vec<u8>)>) -> HashMap<String, Asset> {
    let workers = thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(files.len())
        .max(1);
    let queue = Mutex::new(files.into_iter());
    let next = || queue.lock().ok().and_then(|mut queue| queue.next());
    thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut prepared = Vec::new();
                    while let Some((path, bytes)) = next() {
                        let asset = Asset::new(&path, bytes);
                        prepared.push((path, asset));
                    }
                    prepared
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker only panics if compression itself does; let that surface.
            .flat_map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Paths use `/` whatever the platform the build was read on, without a leading `./` or `/`.
fn normalise(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    path.trim_start_matches('/').to_owned()
}

/// Vite emits JavaScript, CSS, fonts, images and source maps; browsers insist on the right type
/// for module scripts and stylesheets (`nosniff` is on).
fn content_type(path: &str) -> String {
    let extension = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    match extension.as_deref() {
        Some("js" | "mjs") => "text/javascript; charset=utf-8".to_owned(),
        Some("css") => "text/css; charset=utf-8".to_owned(),
        Some("map" | "json") => "application/json".to_owned(),
        Some("svg") => "image/svg+xml".to_owned(),
        Some("woff2") => "font/woff2".to_owned(),
        Some("wasm") => "application/wasm".to_owned(),
        _ => mime_guess::from_path(path)
            .first_or_octet_stream()
            .essence_str()
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalised() {
        assert_eq!(normalise("./assets/a.js"), "assets/a.js");
        assert_eq!(normalise("assets\\a.js"), "assets/a.js");
        assert_eq!(normalise("/.vite/manifest.json"), ".vite/manifest.json");
    }

    #[test]
    fn content_types_suit_module_scripts_and_styles() {
        assert_eq!(
            content_type("assets/a.js"),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(content_type("assets/a.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("assets/a.png"), "image/png");
    }

    #[test]
    fn a_build_whose_manifest_names_a_missing_file_is_refused() {
        let manifest = br#"{"src/main.ts": {"file": "assets/main-A1.js", "isEntry": true}}"#;
        let error =
            AssetStore::from_files(vec![(MANIFEST_PATH.into(), manifest.to_vec())]).unwrap_err();
        assert!(error.to_string().contains("assets/main-A1.js"));
    }

    #[test]
    fn incompressible_and_tiny_assets_have_no_copies() {
        let store = AssetStore::from_files(vec![
            ("assets/photo.png".into(), vec![b'a'; 4096]),
            ("assets/tiny.js".into(), b"x".to_vec()),
            ("assets/big.js".into(), b"let a = 1;\n".repeat(200)),
            ("index.html".into(), b"<!doctype html>".to_vec()),
        ])
        .unwrap();
        assert!(!store.has_build(), "there is no manifest");
        assert_eq!(
            store.asset_count(),
            3,
            "only files under assets/ are served"
        );
        assert!(
            store
                .get("assets/photo.png")
                .unwrap()
                .body
                .encodings()
                .is_empty()
        );
        assert!(
            store
                .get("assets/tiny.js")
                .unwrap()
                .body
                .encodings()
                .is_empty()
        );
        assert_eq!(
            store.get("assets/big.js").unwrap().body.encodings(),
            [encoding::Encoding::Brotli, encoding::Encoding::Gzip]
        );
    }
}
