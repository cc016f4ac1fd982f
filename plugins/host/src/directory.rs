//! A plugins directory that can be loaded again while the server runs: in development, a
//! plugin rebuilt into the directory replaces the old one without a restart.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::SystemTime;

use vitrine_core::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, PluginBlockType, PluginRendering,
};

use crate::host::{LoadError, PluginHost};

/// The plugins of one directory, and what its files looked like when they were loaded.
pub struct PluginDirectory {
    dir: PathBuf,
    host: RwLock<Arc<PluginHost>>,
    /// Each file of each plugin folder with its modification time and size, sorted.
    fingerprint: Mutex<Vec<(PathBuf, Option<SystemTime>, u64)>>,
    reloads: AtomicU64,
}

impl PluginDirectory {
    /// Loads every plugin of `dir` into `host` (which should hold none yet); returns the
    /// directory and the plugins that could not load.
    pub fn load(dir: &Path, mut host: PluginHost) -> (Self, Vec<LoadError>) {
        let fingerprint = fingerprint(dir);
        let errors = host.load_dir(dir);
        let directory = Self {
            dir: dir.to_owned(),
            host: RwLock::new(Arc::new(host)),
            fingerprint: Mutex::new(fingerprint),
            reloads: AtomicU64::new(0),
        };
        (directory, errors)
    }

    /// The plugins as loaded now.
    pub fn host(&self) -> Arc<PluginHost> {
        Arc::clone(
            &self
                .host
                .read()
                .unwrap_or_else(|poison| poison.into_inner()),
        )
    }

    /// Loads the directory again when a file in it was added, removed or changed since the
    /// last load; returns whether it did. Renders in progress finish with the old plugins.
    /// Failure counts start again, so a fixed plugin that had been disabled serves again.
    pub fn reload_if_changed(&self) -> bool {
        let now = fingerprint(&self.dir);
        {
            let mut last = self
                .fingerprint
                .lock()
                .unwrap_or_else(|poison| poison.into_inner());
            if *last == now {
                return false;
            }
            *last = now;
        }
        let mut host = self.host().emptied();
        let errors = host.load_dir(&self.dir);
        tracing::info!(dir = %self.dir.display(), loaded = host.status().len(), refused = errors.len(), "plugins reloaded after a change");
        *self
            .host
            .write()
            .unwrap_or_else(|poison| poison.into_inner()) = Arc::new(host);
        self.reloads.fetch_add(1, Ordering::Relaxed);
        true
    }
}

impl BlockRenderer for PluginDirectory {
    fn claims(&self, block_type: &PluginBlockType) -> bool {
        self.host().claims(block_type)
    }

    fn render(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> Result<PluginRendering, BlockRenderError> {
        self.host().render(request)
    }

    fn generation(&self) -> u64 {
        self.reloads.load(Ordering::Relaxed) + self.host().generation()
    }
}

/// The files of the plugin folders in `dir`, with modification time and size.
fn fingerprint(dir: &Path) -> Vec<(PathBuf, Option<SystemTime>, u64)> {
    let mut files = Vec::new();
    let Ok(folders) = std::fs::read_dir(dir) else {
        return files;
    };
    for folder in folders.filter_map(Result::ok) {
        let Ok(entries) = std::fs::read_dir(folder.path()) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            if let Ok(metadata) = entry.metadata()
                && metadata.is_file()
            {
                files.push((entry.path(), metadata.modified().ok(), metadata.len()));
            }
        }
    }
    files.sort();
    files
}
