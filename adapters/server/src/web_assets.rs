//! The web build embedded in the binary at compile time (see `build.rs`), turned into the
//! HTTP adapter's asset store.

use std::path::Path;

use anyhow::Context;
use include_dir::{Dir, include_dir};
use vitrine_http::AssetStore;

/// `web/dist` as it was when the binary was built; empty when the front end was not built.
static WEB_BUILD: Dir<'static> = include_dir!("$VITRINE_WEB_DIST");

/// The asset store of the embedded build, its files precompressed now.
pub fn load() -> anyhow::Result<AssetStore> {
    let files = files_of(&WEB_BUILD);
    if files.is_empty() {
        tracing::warn!(
            "this binary was built without the web build; pages will have no scripts or styles. \
             Run `npm --prefix web run build`, then rebuild Vitrine"
        );
        return Ok(AssetStore::empty());
    }
    let store = AssetStore::from_files(files).context(
        "the embedded web build is inconsistent; rebuild it with `npm --prefix web run build`",
    )?;
    tracing::info!(assets = store.asset_count(), "web build loaded");
    Ok(store)
}

/// The asset store of a web build on disk, for `vitrine serve --assets-dir`.
pub fn load_dir(dir: &Path) -> anyhow::Result<AssetStore> {
    let mut files = Vec::new();
    read_tree(dir, dir, &mut files)
        .with_context(|| format!("could not read the web build in {}", dir.display()))?;
    let store = AssetStore::from_files(files).with_context(|| {
        format!(
            "{} is not a complete web build; build one with `npm --prefix web run build`",
            dir.display()
        )
    })?;
    tracing::info!(assets = store.asset_count(), dir = %dir.display(), "web build loaded from disk");
    Ok(store)
}

fn read_tree(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            read_tree(root, &path, files)?;
        } else {
            let relative = path
                .strip_prefix(root)
                .expect("walked paths stay under the root")
                .to_string_lossy()
                .replace('\\', "/");
            files.push((relative, std::fs::read(&path)?));
        }
    }
    Ok(())
}

/// Every file under `dir`, with its path relative to the root of the embedded directory.
pub fn files_of(dir: &Dir<'static>) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    collect(dir, &mut files);
    files
}

fn collect(dir: &Dir<'static>, files: &mut Vec<(String, Vec<u8>)>) {
    for file in dir.files() {
        let path = file.path().to_string_lossy().replace('\\', "/");
        files.push((path, file.contents().to_vec()));
    }
    for child in dir.dirs() {
        collect(child, files);
    }
}
