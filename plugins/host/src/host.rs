//! The plugin host: one engine, the loaded plugins, and the block-renderer port on top.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;
use vitrine_core::enums::BlockType;
use vitrine_core::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, PluginBlockType, PluginCss, PluginHtml,
    PluginRendering,
};
use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

use crate::bindings::{BlockRenderer as Bindings, BlockRendererPre};
use crate::capabilities::{CollectionItems, NoCollections, RenderState};
use crate::limits::CEILING;
use crate::loaded::{LoadedPlugin, RenderFailure, RenderStats};
use crate::manifest::{Capability, Manifest, ManifestError};

/// Failures in a row after which a plugin is disabled for [`COOL_DOWN`]. One success resets
/// the count, so a plugin that fails on one odd block keeps serving the others. Only failures
/// of the plugin itself count: block data it is not given (above its input limit) or calls
/// invalid is the caller's error and leaves the plugin as it was, so no visitor can switch a
/// plugin off by sending bad data.
pub const FAILURE_THRESHOLD: u32 = 5;

/// How long a disabled plugin rests before it renders again (on probation: one more failure
/// disables it for another cool-down). Five minutes: long enough that a broken plugin costs
/// little, short enough that one that failed for a passing reason comes back by itself.
pub const COOL_DOWN: Duration = Duration::from_secs(5 * 60);

/// The period of the engine's epoch ticker.
const EPOCH_TICK: Duration = Duration::from_millis(10);

/// The wall-clock time a render may take, in epoch ticks (one second). Fuel is the limit a
/// plugin meets first; this deadline is the backstop for time fuel does not count (a machine
/// so busy that a render's fuel takes far longer than it should).
pub const RENDER_DEADLINE_TICKS: u64 = 100;

/// What the host reads the time from: `Instant::now` in production, a clock the test moves in
/// tests, so a cool-down can pass without waiting for it.
pub type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

/// Renders that may run at the same moment; the pooling allocator reserves slots for them.
const CONCURRENT_RENDERS: u32 = 64;

#[derive(Debug, Error)]
pub enum LoadError {
    #[error("{dir}: {source}")]
    Manifest { dir: PathBuf, source: ManifestError },
    #[error("{path}: cannot read: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error(
        "plugin {plugin}: the component is {size} bytes, above its binary limit of {limit} bytes"
    )]
    TooLarge {
        plugin: String,
        size: usize,
        limit: usize,
    },
    #[error("plugin {plugin}: not a valid block-renderer component: {reason}")]
    Invalid { plugin: String, reason: String },
    #[error(
        "plugin {plugin} uses the {capability} capability without declaring it: add `{capability} = \"why it is needed\"` under [capabilities] in plugin.toml"
    )]
    UndeclaredCapability {
        plugin: String,
        capability: &'static str,
    },
    #[error("plugin {plugin} claims block type {block_type}, already claimed by plugin {other}")]
    AlreadyClaimed {
        plugin: String,
        block_type: String,
        other: String,
    },
    #[error("plugin {plugin} claims code {code}, which is not a block type of the specification")]
    UnknownCode { plugin: String, code: u16 },
    #[error("plugin {plugin}: {reason}")]
    InvalidTypeName { plugin: String, reason: String },
    #[error("the WebAssembly engine could not start: {0}")]
    Engine(String),
}

/// What the site's owner sees about a plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginStatus {
    pub name: String,
    pub version: String,
    pub enabled: bool,
    pub failures_in_a_row: u32,
    pub failures_total: u32,
}

/// Loads block plugins and renders their blocks in the sandbox.
pub struct PluginHost {
    engine: Engine,
    linker: Linker<RenderState>,
    plugins: Vec<Arc<LoadedPlugin>>,
    /// Each claimed block type: the plugin's index and the type's name in its manifest.
    by_type: HashMap<PluginBlockType, (usize, String)>,
    cache_dir: Option<PathBuf>,
    collections: Arc<dyn CollectionItems>,
    clock: Clock,
    cool_down: Duration,
    deadline_ticks: u64,
}

impl PluginHost {
    /// A host with no plugins. Compiled components are cached in `cache_dir` when given.
    pub fn new(cache_dir: Option<PathBuf>) -> Result<Self, LoadError> {
        let mut pool = PoolingAllocationConfig::default();
        pool.total_component_instances(CONCURRENT_RENDERS)
            .total_core_instances(CONCURRENT_RENDERS * 4)
            .total_memories(CONCURRENT_RENDERS * 2)
            .total_tables(CONCURRENT_RENDERS * 4)
            .max_memory_size(CEILING.memory_bytes)
            .table_elements(CEILING.table_elements);
        let mut config = Config::new();
        config
            .consume_fuel(true)
            .epoch_interruption(true)
            .allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        let engine =
            Engine::new(&config).map_err(|error| LoadError::Engine(format!("{error:#}")))?;
        start_epoch_ticker(&engine)?;
        let mut linker = Linker::new(&engine);
        Bindings::add_to_linker::<RenderState, HasSelf<RenderState>>(&mut linker, |state| state)
            .map_err(|error| LoadError::Engine(format!("{error:#}")))?;
        Ok(Self {
            engine,
            linker,
            plugins: Vec::new(),
            by_type: HashMap::new(),
            cache_dir,
            collections: Arc::new(NoCollections),
            clock: Arc::new(Instant::now),
            cool_down: COOL_DOWN,
            deadline_ticks: RENDER_DEADLINE_TICKS,
        })
    }

    /// Reads the time from `clock` and rests disabled plugins for `cool_down` (tests move the
    /// clock instead of waiting).
    pub fn with_cool_down(mut self, cool_down: Duration, clock: Clock) -> Self {
        self.cool_down = cool_down;
        self.clock = clock;
        self
    }

    /// Stops each render after `ticks` epoch ticks of wall-clock time (10 ms each) even with
    /// fuel left; [`RENDER_DEADLINE_TICKS`] by default.
    pub fn with_render_deadline_ticks(mut self, ticks: u64) -> Self {
        self.deadline_ticks = ticks;
        self
    }

    fn is_disabled(&self, plugin: &LoadedPlugin) -> bool {
        plugin.is_disabled((self.clock)(), self.cool_down, FAILURE_THRESHOLD)
    }

    /// A host on the same engine, cache and collections, with no plugins loaded yet: the start
    /// of a reload.
    pub fn emptied(&self) -> Self {
        Self {
            engine: self.engine.clone(),
            linker: self.linker.clone(),
            plugins: Vec::new(),
            by_type: HashMap::new(),
            cache_dir: self.cache_dir.clone(),
            collections: Arc::clone(&self.collections),
            clock: Arc::clone(&self.clock),
            cool_down: self.cool_down,
            deadline_ticks: self.deadline_ticks,
        }
    }

    /// Where the `collections` capability reads items.
    pub fn with_collections(mut self, collections: Arc<dyn CollectionItems>) -> Self {
        self.collections = collections;
        self
    }

    /// Loads every plugin in the subdirectories of `dir` that hold a `plugin.toml`. A plugin
    /// that fails to load is logged and returned, and the others load regardless.
    pub fn load_dir(&mut self, dir: &Path) -> Vec<LoadError> {
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .collect(),
            Err(error) => {
                return vec![LoadError::Read {
                    path: dir.to_owned(),
                    reason: error.to_string(),
                }];
            }
        };
        entries.sort();
        let mut errors = Vec::new();
        for plugin_dir in entries
            .iter()
            .filter(|path| path.join("plugin.toml").is_file())
        {
            match self.load_plugin_dir(plugin_dir) {
                Ok(name) => tracing::info!(plugin = %name, "plugin loaded"),
                Err(error) => {
                    tracing::error!("plugin not loaded: {error}");
                    errors.push(error);
                }
            }
        }
        errors
    }

    /// Loads the plugin whose `plugin.toml` is in `dir`; returns its name.
    pub fn load_plugin_dir(&mut self, dir: &Path) -> Result<String, LoadError> {
        let read = |path: PathBuf| {
            std::fs::read(&path).map_err(|error| LoadError::Read {
                path,
                reason: error.to_string(),
            })
        };
        let text = read(dir.join("plugin.toml"))?;
        let manifest = Manifest::parse(&String::from_utf8_lossy(&text)).map_err(|source| {
            LoadError::Manifest {
                dir: dir.to_owned(),
                source,
            }
        })?;
        let bytes = read(dir.join(&manifest.component))?;
        let name = manifest.name.clone();
        self.load(manifest, &bytes)?;
        Ok(name)
    }

    /// Loads a plugin from its manifest and component bytes.
    pub fn load(&mut self, manifest: Manifest, bytes: &[u8]) -> Result<(), LoadError> {
        let plugin = manifest.name.clone();
        let limits = manifest.limits().map_err(|reason| LoadError::Manifest {
            dir: PathBuf::new(),
            source: ManifestError::Limits {
                plugin: plugin.clone(),
                reason,
            },
        })?;
        if bytes.len() > limits.binary_bytes {
            return Err(LoadError::TooLarge {
                plugin,
                size: bytes.len(),
                limit: limits.binary_bytes,
            });
        }
        let invalid = |error: wasmtime::Error| LoadError::Invalid {
            plugin: plugin.clone(),
            reason: format!("{error:#}"),
        };
        let component = crate::cache::compile(&self.engine, bytes, self.cache_dir.as_deref())
            .map_err(invalid)?;
        for (import, _) in component.component_type().imports(&self.engine) {
            if let Some(capability) = Capability::from_import(import)
                && !manifest.capabilities.grants(capability)
            {
                return Err(LoadError::UndeclaredCapability {
                    plugin,
                    capability: capability.name(),
                });
            }
        }
        let mut claims = Vec::with_capacity(manifest.blocks.len());
        for claim in &manifest.blocks {
            let block_type = match claim.code {
                Some(code) => BlockType::from_code(code)
                    .map(PluginBlockType::Spec)
                    .map_err(|_| LoadError::UnknownCode {
                        plugin: plugin.clone(),
                        code,
                    })?,
                None => PluginBlockType::from_name(&claim.name).map_err(|error| {
                    LoadError::InvalidTypeName {
                        plugin: plugin.clone(),
                        reason: error.to_string(),
                    }
                })?,
            };
            if let Some((index, _)) = self.by_type.get(&block_type) {
                return Err(LoadError::AlreadyClaimed {
                    plugin,
                    block_type: claim.name.clone(),
                    other: self.plugins[*index].manifest.name.clone(),
                });
            }
            claims.push((block_type, claim.name.clone()));
        }
        // WASI imports that a guest's standard library links (clock, environment, files) are
        // defined as traps: the plugin instantiates, and any real use of them stops it.
        let mut linker = self.linker.clone();
        linker
            .define_unknown_imports_as_traps(&component)
            .map_err(invalid)?;
        let pre = linker.instantiate_pre(&component).map_err(invalid)?;
        let pre = BlockRendererPre::new(pre).map_err(invalid)?;
        let index = self.plugins.len();
        for (block_type, name) in claims {
            self.by_type.insert(block_type, (index, name));
        }
        self.plugins.push(Arc::new(LoadedPlugin {
            name: Arc::from(plugin.as_str()),
            manifest,
            limits,
            pre,
            failures_in_a_row: AtomicU32::new(0),
            failures_total: AtomicU32::new(0),
            disabled_at: Mutex::new(None),
        }));
        Ok(())
    }

    /// The loaded plugins, with whether each is still enabled and how often it failed.
    pub fn status(&self) -> Vec<PluginStatus> {
        self.plugins
            .iter()
            .map(|plugin| PluginStatus {
                name: plugin.manifest.name.clone(),
                version: plugin.manifest.version.clone(),
                enabled: !self.is_disabled(plugin),
                failures_in_a_row: plugin.failures_in_a_row.load(Ordering::Relaxed),
                failures_total: plugin.failures_total.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// The plugin that claims `block_type`, and the type's name in its manifest.
    fn plugin_for(&self, block_type: &PluginBlockType) -> Option<(&Arc<LoadedPlugin>, &str)> {
        self.by_type
            .get(block_type)
            .map(|(index, name)| (&self.plugins[*index], name.as_str()))
    }

    /// The block types the loaded plugins claim, in no particular order.
    pub fn claimed_types(&self) -> Vec<PluginBlockType> {
        self.by_type.keys().cloned().collect()
    }
}

impl PluginHost {
    /// Renders one block like [`BlockRenderer::render`], and reports what the render used, for
    /// `vitrine plugin check` and benchmarks.
    pub fn render_with_stats(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> (Result<PluginRendering, BlockRenderError>, RenderStats) {
        let mut stats = RenderStats::default();
        let outcome = self.render_block(request, &mut stats);
        (outcome, stats)
    }

    fn render_block(
        &self,
        request: &BlockRenderRequest<'_>,
        stats: &mut RenderStats,
    ) -> Result<PluginRendering, BlockRenderError> {
        let (plugin, claim_name) = self
            .plugin_for(&request.block_type)
            .ok_or_else(|| BlockRenderError::Unclaimed(request.block_type.clone()))?;
        let name = plugin.manifest.name.clone();
        if self.is_disabled(plugin) {
            return Err(BlockRenderError::Disabled { plugin: name });
        }
        let collections = Arc::clone(&self.collections);
        match plugin.render(request, claim_name, collections, self.deadline_ticks, stats) {
            Ok(rendering) => {
                plugin.record_success();
                // CSS outside the safe subset is dropped, not the block: its HTML is sound.
                let css = rendering.css.as_deref().and_then(|css| {
                    PluginCss::scope(css, request.block_id)
                        .inspect_err(|error| tracing::warn!(plugin = %name, block = request.block_id, %error, "plugin CSS dropped"))
                        .ok()
                });
                Ok(PluginRendering {
                    html: PluginHtml::sanitize(&rendering.html),
                    css,
                    cache_seconds: rendering.cache_seconds,
                })
            }
            Err(RenderFailure::InputTooLarge { size, limit }) => {
                Err(BlockRenderError::InputTooLarge {
                    plugin: name,
                    size,
                    limit,
                })
            }
            Err(RenderFailure::InvalidInput(reason)) => {
                tracing::info!(plugin = %name, block = request.block_id, page = request.page_url, %reason, "plugin refused the block data");
                Err(BlockRenderError::InvalidInput {
                    plugin: name,
                    reason,
                })
            }
            Err(RenderFailure::Plugin(reason)) => {
                tracing::warn!(plugin = %name, block = request.block_id, page = request.page_url, %reason, "plugin block failed; the page shows the fallback");
                if plugin.record_failure(FAILURE_THRESHOLD, (self.clock)()) {
                    tracing::error!(plugin = %name, "plugin disabled after {FAILURE_THRESHOLD} failures in a row; its blocks show the fallback for {} s, then it is tried again", self.cool_down.as_secs());
                }
                Err(BlockRenderError::Failed {
                    plugin: name,
                    reason,
                })
            }
        }
    }
}

impl BlockRenderer for PluginHost {
    fn claims(&self, block_type: &PluginBlockType) -> bool {
        self.plugin_for(block_type)
            .is_some_and(|(plugin, _)| !self.is_disabled(plugin))
    }

    fn render(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> Result<PluginRendering, BlockRenderError> {
        self.render_block(request, &mut RenderStats::default())
    }

    /// Changes when the items the `collections` capability reads change, so pages holding
    /// summaries of them are rendered again.
    fn generation(&self) -> u64 {
        self.collections.version()
    }
}

/// Moves the engine's epoch on every [`EPOCH_TICK`], so a render past its deadline traps, for
/// as long as the engine lives (the thread holds it weakly and ends with it).
fn start_epoch_ticker(engine: &Engine) -> Result<(), LoadError> {
    let engine = engine.weak();
    std::thread::Builder::new()
        .name("plugin-epoch".to_owned())
        .spawn(move || {
            while let Some(engine) = engine.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(EPOCH_TICK);
            }
        })
        .map(|_| ())
        .map_err(|error| LoadError::Engine(format!("the epoch ticker could not start: {error}")))
}
