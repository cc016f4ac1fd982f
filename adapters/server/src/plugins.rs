//! Block plugins at start: the plugins directory (created with the bundled examples when it
//! does not exist), the on-disk cache of compiled components, the site's collections for the
//! `collections` capability, and, in development, reloading plugins whose files change.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use include_dir::{Dir, include_dir};
use vitrine_core::plugins::BlockRenderer;
use vitrine_core::ports::SiteRepository;
use vitrine_plugins::{PluginDirectory, PluginHost};

use crate::cli::ServeArgs;
use crate::plugin_collections::SiteCollections;

/// The example plugins built into the binary (empty when they were not built first).
static BUNDLED: Dir<'static> = include_dir!("$VITRINE_BUNDLED_PLUGINS");

/// How often the plugins directory is looked at with `--watch-plugins`.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// Loads every plugin of the plugins directory. A plugin that cannot load is logged and left
/// out; the site serves regardless, its blocks showing the fallback.
pub async fn load(
    args: &ServeArgs,
    repository: Arc<dyn SiteRepository>,
) -> anyhow::Result<Arc<dyn BlockRenderer>> {
    let data_dir = &args.database.data_dir;
    let dir = args
        .plugins
        .clone()
        .unwrap_or_else(|| data_dir.join("plugins"));
    if !dir.exists() {
        install_bundled(&dir)?;
    }
    // Read once before the first page, then kept current while the server runs.
    let collections = Arc::new(SiteCollections::default());
    if let Err(error) = collections.refresh(repository.as_ref()).await {
        tracing::warn!(%error, "could not read the site's collections for plugins");
    }
    tokio::spawn(Arc::clone(&collections).refresh_forever(repository));

    let cache = data_dir.join("plugin-cache");
    let host = PluginHost::new(Some(cache))
        .context("could not start the plugin host")?
        .with_collections(collections);
    let (directory, errors) = PluginDirectory::load(&dir, host);
    let loaded = directory.host().status().len();
    tracing::info!(dir = %dir.display(), loaded, refused = errors.len(), "block plugins loaded");
    let directory = Arc::new(directory);
    if args.watch_plugins {
        tracing::info!(dir = %dir.display(), "watching the plugins directory: a changed plugin is loaded again");
        tokio::spawn(watch(Arc::clone(&directory)));
    }
    Ok(directory)
}

/// Reloads the plugins whenever their files change, until the server stops.
async fn watch(directory: Arc<PluginDirectory>) {
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let directory = Arc::clone(&directory);
        // Compiling a component takes milliseconds to seconds: off the request threads.
        if let Err(error) = tokio::task::spawn_blocking(move || directory.reload_if_changed()).await
        {
            tracing::error!(%error, "reloading the plugins failed");
        }
    }
}

/// Creates `dir` holding the bundled example plugins, one folder each.
fn install_bundled(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("could not create the plugins directory {}", dir.display()))?;
    let files = BUNDLED.dirs().flat_map(|plugin| plugin.files());
    for file in files {
        let target: PathBuf = dir.join(file.path());
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, file.contents())
            .with_context(|| format!("could not write {}", target.display()))?;
    }
    Ok(())
}
