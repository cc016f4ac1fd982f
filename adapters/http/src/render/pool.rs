//! Plugin renders off the async workers. A render is synchronous WebAssembly that may run up to
//! its fuel and wall-clock limits, so it runs on tokio's blocking threads, at most `workers` at
//! once, with at most `queue` more waiting for a slot. Beyond that a render is refused at once
//! as [`BlockRenderError::Busy`]: the widget API answers 503 with `Retry-After`, and a page
//! shows the block's fallback and is not cached. However many renders visitors ask for, the
//! async workers stay free to serve pages.
//!
//! Pages render their plugin blocks here first ([`RenderPool::prerender`]) and then render the
//! page's templates, synchronously, from the finished blocks ([`Prerendered`]).

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Semaphore;
use vitrine_core::pages::PageView;
use vitrine_core::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, PluginBlockType, PluginHtml,
    PluginRendering,
};
use vitrine_core::site::BlockContent;

use crate::shared::census_log::{CensusLog, CensusRow};

/// Renders that wait for a slot, beyond those running, before more are refused.
pub const DEFAULT_RENDER_QUEUE: usize = 64;

/// Renders that run at once by default: one per core (at least 2, at most 16), since a
/// render is pure computation. The plugin host's pooling allocator has room for 64.
pub fn default_render_workers() -> usize {
    std::thread::available_parallelism().map_or(2, |cores| cores.get().clamp(2, 16))
}

/// The bounded pool plugin renders run in.
pub(crate) struct RenderPool {
    renderer: Arc<dyn BlockRenderer>,
    workers: usize,
    queue: usize,
    /// One permit per render running.
    running: Arc<Semaphore>,
    /// One permit per render running or waiting; none left means busy.
    admitted: Arc<Semaphore>,
}

/// A render request that owns its parts, so it can move to a blocking thread.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OwnedRenderRequest {
    pub(crate) locale: String,
    pub(crate) currency: String,
    pub(crate) block_id: String,
    pub(crate) block_type: PluginBlockType,
    pub(crate) page_url: String,
    pub(crate) data: String,
}

impl OwnedRenderRequest {
    fn borrowed(&self) -> BlockRenderRequest<'_> {
        BlockRenderRequest {
            locale: &self.locale,
            currency: &self.currency,
            block_id: &self.block_id,
            block_type: self.block_type.clone(),
            // Pages and widgets are rendered for anonymous visitors (site accounts do not
            // exist yet, and the page cache holds only anonymous pages).
            signed_in: false,
            page_url: &self.page_url,
            data: &self.data,
        }
    }
}

impl RenderPool {
    pub(crate) fn new(renderer: Arc<dyn BlockRenderer>, workers: usize, queue: usize) -> Self {
        let workers = workers.max(1);
        Self {
            renderer,
            workers,
            queue,
            running: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(Semaphore::new(workers + queue)),
        }
    }

    /// A pool of the same size over another renderer.
    pub(crate) fn with_renderer(&self, renderer: Arc<dyn BlockRenderer>) -> Self {
        Self::new(renderer, self.workers, self.queue)
    }

    /// Renders one block on a blocking thread, or refuses at once when the queue is full. A
    /// block its plugin failed to render, or did not render because the plugin rests after
    /// failing, is counted in `census` for the owner's dashboard.
    pub(crate) async fn render(
        &self,
        request: OwnedRenderRequest,
        census: &CensusLog,
    ) -> Result<PluginRendering, BlockRenderError> {
        let block_type = request.block_type.clone();
        let outcome = self.render_in_pool(request).await;
        if let Err(BlockRenderError::Failed { .. } | BlockRenderError::Disabled { .. }) = &outcome {
            record_failure(census, &block_type);
        }
        outcome
    }

    async fn render_in_pool(
        &self,
        request: OwnedRenderRequest,
    ) -> Result<PluginRendering, BlockRenderError> {
        let admitted = Arc::clone(&self.admitted)
            .try_acquire_owned()
            .map_err(|_| BlockRenderError::Busy)?;
        // The semaphores are never closed, so acquiring only ever waits.
        let running = Arc::clone(&self.running)
            .acquire_owned()
            .await
            .map_err(|_| BlockRenderError::Busy)?;
        let renderer = Arc::clone(&self.renderer);
        let block_type = request.block_type.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            // Held until the render ends, even when the caller has gone.
            let _permits = (admitted, running);
            renderer.render(&request.borrowed())
        })
        .await;
        outcome.unwrap_or_else(|error| {
            tracing::error!(%error, %block_type, "a plugin render panicked in the host");
            Err(BlockRenderError::Failed {
                plugin: block_type.to_string(),
                reason: "the render panicked in the host".to_owned(),
            })
        })
    }

    /// Renders every plugin block of `view` through the pool, for the page's templates to
    /// place. Blocks of types no plugin claims are not sent (they fall back without a render).
    pub(crate) async fn prerender(&self, view: &PageView, census: &CensusLog) -> Prerendered {
        let layout = crate::render::content_layout(view);
        let settings = &view.profile.settings;
        let mut renderings = HashMap::new();
        for block in layout.into_iter().flat_map(|layout| layout.blocks()) {
            let BlockContent::Plugin { block_type, data } = &block.content else {
                continue;
            };
            if !self.renderer.claims(block_type) {
                // No plugin renders the type, or its plugin rests after failing.
                renderings.insert(
                    block.id.to_string(),
                    (block_type.clone(), Ok(fallback(FALLBACK_CACHE_SECONDS))),
                );
                continue;
            }
            let request = OwnedRenderRequest {
                locale: settings.locale.clone(),
                currency: settings.store.selected_currency.code().to_owned(),
                block_id: block.id.to_string(),
                block_type: block_type.clone(),
                page_url: view.path.clone(),
                data: data.to_string(),
            };
            let outcome = match self.render(request, census).await {
                // The block falls back on this visit only: the page is not cached with it.
                Err(BlockRenderError::Busy) => Ok(fallback(0)),
                Err(_) => Ok(fallback(FALLBACK_CACHE_SECONDS)),
                outcome => outcome,
            };
            renderings.insert(block.id.to_string(), (block_type.clone(), outcome));
        }
        Prerendered { renderings }
    }
}

/// Counts a failed plugin block for the owner's dashboard (the plugin host logs the reason).
/// The row carries no visitor and no page, so it is kept even when census counting is off:
/// it tracks no one, and the owner needs to see a plugin that breaks their pages.
fn record_failure(census: &CensusLog, block_type: &PluginBlockType) {
    census.push(CensusRow {
        kind: vitrine_core::analytics::kinds::PLUGIN_FAILURE,
        visitor: None,
        page_path: None,
        data: serde_json::json!({ "blockType": block_type.to_string() }),
        recorded_at_ms: crate::shared::clock::now_ms(),
    });
}

/// How long a page showing a plugin block's fallback may be reused: a plugin back from its
/// cool-down, or one that failed once, shows again within a minute.
const FALLBACK_CACHE_SECONDS: u32 = 60;

/// The fallback of a plugin block, for a page reused at most `cache_seconds`.
fn fallback(cache_seconds: u32) -> PluginRendering {
    PluginRendering {
        html: PluginHtml::fallback(),
        css: None,
        cache_seconds: Some(cache_seconds),
    }
}

/// A page's plugin blocks, rendered already: the block renderer its templates render with.
#[derive(Debug, Default)]
pub(crate) struct Prerendered {
    /// By block id: the block's type and its rendering.
    renderings: HashMap<String, (PluginBlockType, Result<PluginRendering, BlockRenderError>)>,
}

impl BlockRenderer for Prerendered {
    fn claims(&self, block_type: &PluginBlockType) -> bool {
        self.renderings
            .values()
            .any(|(rendered, _)| rendered == block_type)
    }

    fn render(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> Result<PluginRendering, BlockRenderError> {
        match self.renderings.get(request.block_id) {
            Some((_, outcome)) => outcome.clone(),
            None => Err(BlockRenderError::Unclaimed(request.block_type.clone())),
        }
    }
}
