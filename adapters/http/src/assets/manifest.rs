//! The Vite build manifest (`.vite/manifest.json`): which hashed files an entry or an island
//! became, which chunks they import statically and which stylesheets they need. It decides what
//! each page links and preloads.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::render::PageAssets;

/// The page runtime every page loads.
pub const MAIN_ENTRY: &str = "src/main.ts";
/// The site stylesheet's entry is the manifest entry whose source is named like this.
pub const SITE_STYLESHEET_NAME: &str = "site.css";

/// The manifest key of an island's module.
pub fn island_entry(name: &str) -> String {
    format!("src/islands/{name}.tsx")
}

/// A module the common script imports as soon as it starts on a page that shows what the
/// module drives. The server knows when it rendered one, so the page preloads it beside the
/// common script rather than leaving the browser to find it after running that script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StartModule {
    /// The cookie banner's behaviour (`startBanner` in the privacy runtime).
    CookieBanner,
    /// The popup overlay (`startPopup` in the privacy runtime).
    PopupOverlay,
}

impl StartModule {
    /// The module's manifest key: its source path in the web build.
    fn key(self) -> &'static str {
        match self {
            Self::CookieBanner => "src/consent/cookie-banner.ts",
            Self::PopupOverlay => "src/popup/popup-overlay.ts",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("the Vite manifest is not valid: {0}")]
    Invalid(#[from] serde_json::Error),
    #[error("the Vite manifest names `{file}` (for `{key}`), which the build does not contain")]
    MissingFile { key: String, file: String },
}

/// One chunk of the manifest, with the fields Vitrine uses.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Chunk {
    /// Path of the built file, relative to the build directory.
    file: String,
    #[serde(default)]
    is_entry: bool,
    /// Manifest keys of chunks this one imports statically.
    #[serde(default)]
    imports: Vec<String>,
    /// Stylesheets (build paths) this chunk needs.
    #[serde(default)]
    css: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    chunks: BTreeMap<String, Chunk>,
}

impl Manifest {
    pub fn parse(json: &[u8]) -> Result<Self, ManifestError> {
        Ok(Self {
            chunks: serde_json::from_slice(json)?,
        })
    }

    /// Checks that every file the manifest names is part of the build, so a page never links a
    /// file the server cannot serve.
    pub fn check_files(&self, has_file: impl Fn(&str) -> bool) -> Result<(), ManifestError> {
        for (key, chunk) in &self.chunks {
            for file in std::iter::once(&chunk.file).chain(&chunk.css) {
                if !has_file(file) {
                    return Err(ManifestError::MissingFile {
                        key: key.clone(),
                        file: file.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    /// What a page with `islands` links: the site stylesheet, the page runtime and its styles,
    /// and for each island present in the build its chunk and every chunk it imports statically
    /// as module preloads, so the browser fetches them in parallel rather than one by one.
    /// The `started` modules are preloaded the same way, with their styles.
    pub fn page_assets(&self, islands: &BTreeSet<&str>, started: &[StartModule]) -> PageAssets {
        let mut assets = Collected::default();
        if let Some((_, site_css)) = self.chunks.iter().find(|(key, chunk)| {
            chunk.is_entry && key.rsplit('/').next() == Some(SITE_STYLESHEET_NAME)
        }) {
            assets.stylesheet(&site_css.file);
        }
        if let Some(main) = self.chunks.get(MAIN_ENTRY) {
            assets.module_script(&main.file);
            self.collect(MAIN_ENTRY, false, &mut assets, &mut BTreeSet::new());
        }
        for island in islands {
            let key = island_entry(island);
            if self.chunks.contains_key(&key) {
                self.collect(&key, true, &mut assets, &mut BTreeSet::new());
            }
        }
        for module in started {
            self.collect(module.key(), true, &mut assets, &mut BTreeSet::new());
        }
        assets.into_page_assets()
    }

    /// What a page of its own entry (`key`, e.g. the owner dashboard's script) links: the
    /// entry as a module script, its styles and those of its static imports, and those
    /// imports as preloads. Empty when the build has no such entry.
    pub fn entry_assets(&self, key: &str) -> PageAssets {
        let mut assets = Collected::default();
        if let Some(entry) = self.chunks.get(key) {
            assets.module_script(&entry.file);
            self.collect(key, false, &mut assets, &mut BTreeSet::new());
        }
        assets.into_page_assets()
    }

    /// Adds the styles of chunk `key` and of everything it imports, and their files as
    /// preloads (the chunk's own file only when `preload_self`). `seen` guards against cycles.
    fn collect<'a>(
        &'a self,
        key: &'a str,
        preload_self: bool,
        assets: &mut Collected,
        seen: &mut BTreeSet<&'a str>,
    ) {
        if !seen.insert(key) {
            return;
        }
        let Some(chunk) = self.chunks.get(key) else {
            return;
        };
        if preload_self {
            assets.preload(&chunk.file);
        }
        for css in &chunk.css {
            assets.stylesheet(css);
        }
        for import in &chunk.imports {
            self.collect(import, true, assets, seen);
        }
    }
}

/// Page assets being gathered: URLs in first-seen order, each listed once.
#[derive(Default)]
struct Collected {
    stylesheets: Vec<String>,
    module_scripts: Vec<String>,
    module_preloads: Vec<String>,
}

impl Collected {
    fn stylesheet(&mut self, file: &str) {
        push_once(&mut self.stylesheets, url_of(file));
    }

    fn module_script(&mut self, file: &str) {
        let url = url_of(file);
        self.module_preloads.retain(|preload| preload != &url);
        push_once(&mut self.module_scripts, url);
    }

    fn preload(&mut self, file: &str) {
        let url = url_of(file);
        if !self.module_scripts.contains(&url) {
            push_once(&mut self.module_preloads, url);
        }
    }

    fn into_page_assets(self) -> PageAssets {
        PageAssets {
            stylesheets: self.stylesheets,
            module_scripts: self.module_scripts,
            module_preloads: self.module_preloads,
        }
    }
}

fn push_once(list: &mut Vec<String>, url: String) {
    if !list.contains(&url) {
        list.push(url);
    }
}

/// Build paths are relative to the build directory, which is served from the site root.
fn url_of(file: &str) -> String {
    format!("/{}", file.trim_start_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = r#"{
      "src/main.ts": {"file": "assets/main-A1.js", "isEntry": true, "imports": ["_runtime-R1.js"], "css": ["assets/main-M1.css"]},
      "src/styles/site.css": {"file": "assets/site-S1.css", "src": "src/styles/site.css", "isEntry": true},
      "_runtime-R1.js": {"file": "assets/runtime-R1.js"},
      "src/islands/accordion.tsx": {"file": "assets/accordion-C1.js", "isDynamicEntry": true, "imports": ["_react-B1.js"], "css": ["assets/accordion-D1.css"]},
      "src/islands/gallery.tsx": {"file": "assets/gallery-G1.js", "isDynamicEntry": true, "imports": ["_react-B1.js", "_lightbox-L1.js"]},
      "_react-B1.js": {"file": "assets/react-B1.js", "imports": ["_scheduler-Q1.js"]},
      "_scheduler-Q1.js": {"file": "assets/scheduler-Q1.js", "imports": ["_react-B1.js"]},
      "_lightbox-L1.js": {"file": "assets/lightbox-L1.js", "imports": ["_react-B1.js"]},
      "_overlays-O1.js": {"file": "assets/overlays-O1.js"},
      "src/consent/cookie-banner.ts": {"file": "assets/cookie-banner-K1.js", "isDynamicEntry": true, "imports": ["_overlays-O1.js", "src/main.ts"]},
      "src/popup/popup-overlay.ts": {"file": "assets/popup-overlay-P1.js", "isDynamicEntry": true, "imports": ["_overlays-O1.js", "src/main.ts"], "css": ["assets/popup-P2.css"]}
    }"#;

    fn manifest() -> Manifest {
        Manifest::parse(MANIFEST.as_bytes()).unwrap()
    }

    #[test]
    fn a_page_without_islands_loads_only_the_runtime_and_styles() {
        let assets = manifest().page_assets(&BTreeSet::new(), &[]);
        assert_eq!(
            assets.stylesheets,
            ["/assets/site-S1.css", "/assets/main-M1.css"]
        );
        assert_eq!(assets.module_scripts, ["/assets/main-A1.js"]);
        assert_eq!(assets.module_preloads, ["/assets/runtime-R1.js"]);
    }

    #[test]
    fn islands_preload_their_chunks_and_imports_once_despite_cycles() {
        let islands = BTreeSet::from(["accordion", "gallery", "not-built"]);
        let assets = manifest().page_assets(&islands, &[]);
        assert_eq!(
            assets.module_preloads,
            [
                "/assets/runtime-R1.js",
                "/assets/accordion-C1.js",
                "/assets/react-B1.js",
                "/assets/scheduler-Q1.js",
                "/assets/gallery-G1.js",
                "/assets/lightbox-L1.js",
            ]
        );
        assert_eq!(
            assets.stylesheets,
            [
                "/assets/site-S1.css",
                "/assets/main-M1.css",
                "/assets/accordion-D1.css"
            ]
        );
    }

    #[test]
    fn started_modules_are_preloaded_with_their_imports_but_never_the_common_script_twice() {
        let started = [StartModule::CookieBanner, StartModule::PopupOverlay];
        let assets = manifest().page_assets(&BTreeSet::new(), &started);
        assert_eq!(assets.module_scripts, ["/assets/main-A1.js"]);
        assert_eq!(
            assets.module_preloads,
            [
                "/assets/runtime-R1.js",
                "/assets/cookie-banner-K1.js",
                "/assets/overlays-O1.js",
                "/assets/popup-overlay-P1.js",
            ]
        );
        assert_eq!(
            assets.stylesheets,
            [
                "/assets/site-S1.css",
                "/assets/main-M1.css",
                "/assets/popup-P2.css"
            ]
        );
    }

    #[test]
    fn files_missing_from_the_build_are_reported() {
        let error = manifest()
            .check_files(|file| file != "assets/react-B1.js")
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the Vite manifest names `assets/react-B1.js` (for `_react-B1.js`), which the build does not contain"
        );
        assert!(manifest().check_files(|_| true).is_ok());
    }

    #[test]
    fn an_entry_of_its_own_links_its_script_styles_and_imports_only() {
        let assets = manifest().entry_assets("src/islands/gallery.tsx");
        assert_eq!(assets.module_scripts, ["/assets/gallery-G1.js"]);
        assert_eq!(
            assets.module_preloads,
            [
                "/assets/react-B1.js",
                "/assets/scheduler-Q1.js",
                "/assets/lightbox-L1.js"
            ]
        );
        assert!(!assets.stylesheets.iter().any(|css| css.contains("site")));
        assert!(
            manifest()
                .entry_assets("src/nothing.ts")
                .module_scripts
                .is_empty()
        );
    }

    #[test]
    fn a_malformed_manifest_is_an_error() {
        assert!(matches!(
            Manifest::parse(b"[1, 2]"),
            Err(ManifestError::Invalid(_))
        ));
    }
}
