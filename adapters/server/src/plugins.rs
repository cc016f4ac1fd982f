//! Block plugins at start: the plugins directory (created with the bundled examples when it
//! does not exist), the on-disk cache of compiled components, and the host that runs them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use include_dir::{Dir, include_dir};
use vitrine_core::plugins::BlockRenderer;
use vitrine_plugins::PluginHost;

use crate::cli::ServeArgs;

/// The example plugins built into the binary (empty when they were not built first).
static BUNDLED: Dir<'static> = include_dir!("$VITRINE_BUNDLED_PLUGINS");

/// Loads every plugin of the plugins directory. A plugin that cannot load is logged and left
/// out; the site serves regardless, its blocks showing the fallback.
pub fn load(args: &ServeArgs) -> anyhow::Result<Arc<dyn BlockRenderer>> {
    let data_dir = &args.database.data_dir;
    let dir = args
        .plugins
        .clone()
        .unwrap_or_else(|| data_dir.join("plugins"));
    if !dir.exists() {
        install_bundled(&dir)?;
    }
    let cache = data_dir.join("plugin-cache");
    let mut host = PluginHost::new(Some(cache)).context("could not start the plugin host")?;
    let errors = host.load_dir(&dir);
    let loaded = host.status().len();
    tracing::info!(dir = %dir.display(), loaded, refused = errors.len(), "block plugins loaded");
    Ok(Arc::new(host))
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
