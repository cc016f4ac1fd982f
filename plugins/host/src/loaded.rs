//! One loaded plugin: its manifest, its pre-linked component and its failure count.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use vitrine_core::money::{Currency, Locale};
use vitrine_core::plugins::BlockRenderRequest;
use wasmtime::{Store, StoreLimitsBuilder};

use crate::bindings::{BlockRendererPre, RenderContext, RenderError, Rendering};
use crate::capabilities::{CollectionItems, RenderState};
use crate::limiter::RenderLimiter;
use crate::limits::Limits;
use crate::manifest::Manifest;

/// What one render used, whether it succeeded or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Fuel consumed (about one unit per WebAssembly instruction).
    pub fuel_used: u64,
    /// The largest linear memory the instance had, in bytes.
    pub peak_memory_bytes: usize,
}

pub(crate) struct LoadedPlugin {
    pub(crate) manifest: Manifest,
    pub(crate) name: Arc<str>,
    pub(crate) limits: Limits,
    pub(crate) pre: BlockRendererPre<RenderState>,
    pub(crate) failures_in_a_row: AtomicU32,
    pub(crate) failures_total: AtomicU32,
    pub(crate) disabled: AtomicBool,
}

impl LoadedPlugin {
    /// Runs one render in a fresh store; the error is the reason logged for the owner.
    pub(crate) fn render(
        &self,
        request: &BlockRenderRequest<'_>,
        block_type_name: &str,
        collections: Arc<dyn CollectionItems>,
        stats: &mut RenderStats,
    ) -> Result<Rendering, String> {
        if request.data.len() > self.limits.input_bytes {
            return Err(format!(
                "block data of {} bytes is above the input limit of {} bytes",
                request.data.len(),
                self.limits.input_bytes
            ));
        }
        let store_limits = StoreLimitsBuilder::new()
            .memory_size(self.limits.memory_bytes)
            .table_elements(self.limits.table_elements)
            .trap_on_grow_failure(true)
            .build();
        let state = RenderState {
            plugin: Arc::clone(&self.name),
            limiter: RenderLimiter::new(store_limits),
            locale: Locale::best_match(request.locale),
            currency: Currency::from_code(request.currency).unwrap_or_default(),
            collections,
        };
        let mut store = Store::new(self.pre.engine(), state);
        store.limiter(|state| &mut state.limiter);
        store
            .set_fuel(self.limits.fuel)
            .map_err(|error| error.to_string())?;
        let instance = self
            .pre
            .instantiate(&mut store)
            .map_err(|error| format!("could not start: {error:#}"))?;
        let context = RenderContext {
            locale: request.locale.to_owned(),
            currency: request.currency.to_owned(),
            block_id: request.block_id.to_owned(),
            block_type_code: request.block_type.code(),
            block_type_name: block_type_name.to_owned(),
            signed_in: request.signed_in,
            page_url: request.page_url.to_owned(),
        };
        let outcome = instance.call_render(&mut store, &context, request.data);
        stats.fuel_used = self.limits.fuel - store.get_fuel().unwrap_or(0);
        stats.peak_memory_bytes = store.data().limiter.peak_memory_bytes;
        let outcome = outcome.map_err(|error| {
            if store.get_fuel().is_ok_and(|fuel| fuel == 0) {
                format!("ran out of time (fuel limit of {})", self.limits.fuel)
            } else {
                // The root cause ("wasm trap: ...") is what an owner can act on; the wasm
                // backtrace above it is noise in a one-line log entry.
                format!("trapped: {}", error.root_cause())
            }
        })?;
        let rendering = outcome.map_err(|error| match error {
            RenderError::InvalidData(reason) => format!("invalid block data: {reason}"),
            RenderError::UnsupportedType(reason) => format!("unsupported block type: {reason}"),
            RenderError::Failed(reason) => format!("failed: {reason}"),
        })?;
        if rendering.html.len() > self.limits.output_bytes {
            return Err(format!(
                "output of {} bytes is above the output limit of {} bytes",
                rendering.html.len(),
                self.limits.output_bytes
            ));
        }
        Ok(rendering)
    }

    /// Counts a failure; returns true when this one disabled the plugin.
    pub(crate) fn record_failure(&self, threshold: u32) -> bool {
        self.failures_total.fetch_add(1, Ordering::Relaxed);
        let in_a_row = self.failures_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
        in_a_row >= threshold && !self.disabled.swap(true, Ordering::Relaxed)
    }

    pub(crate) fn record_success(&self) {
        self.failures_in_a_row.store(0, Ordering::Relaxed);
    }

    pub(crate) fn is_disabled(&self) -> bool {
        self.disabled.load(Ordering::Relaxed)
    }
}
