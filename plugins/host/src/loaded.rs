//! One loaded plugin: its manifest, its pre-linked component, its failure count and when it
//! was disabled.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use vitrine_core::money::{Currency, Locale};
use vitrine_core::plugins::BlockRenderRequest;
use wasmtime::{Store, StoreLimitsBuilder, Trap};

use crate::bindings::{BlockRendererPre, RenderContext, RenderError, Rendering};
use crate::capabilities::{CollectionItems, RenderState};
use crate::limiter::RenderLimiter;
use crate::limits::Limits;
use crate::manifest::Manifest;

/// Why a render stopped when its epoch deadline passed.
const DEADLINE_PASSED: &str = "ran out of time (wall-clock deadline)";

/// What one render used, whether it succeeded or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Fuel consumed (about one unit per WebAssembly instruction).
    pub fuel_used: u64,
    /// The largest linear memory the instance had, in bytes.
    pub peak_memory_bytes: usize,
}

/// Why one render produced no HTML: the caller's input, or the plugin itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RenderFailure {
    /// The block data is above the plugin's input limit; the plugin did not run.
    InputTooLarge { size: usize, limit: usize },
    /// The plugin said the block data is not valid for its type.
    InvalidInput(String),
    /// The plugin failed: a trap, a limit of time, memory or output, or its own error. Only
    /// these count towards disabling it. The text is the reason logged for the owner.
    Plugin(String),
}

pub(crate) struct LoadedPlugin {
    pub(crate) manifest: Manifest,
    pub(crate) name: Arc<str>,
    pub(crate) limits: Limits,
    pub(crate) pre: BlockRendererPre<RenderState>,
    pub(crate) failures_in_a_row: AtomicU32,
    pub(crate) failures_total: AtomicU32,
    /// When the plugin was disabled; none while it is enabled.
    pub(crate) disabled_at: Mutex<Option<Instant>>,
}

impl LoadedPlugin {
    /// Runs one render in a fresh store, stopped at its fuel or its wall-clock deadline
    /// (`deadline_ticks` epoch ticks of the host's ticker), whichever comes first.
    pub(crate) fn render(
        &self,
        request: &BlockRenderRequest<'_>,
        block_type_name: &str,
        collections: Arc<dyn CollectionItems>,
        deadline_ticks: u64,
        stats: &mut RenderStats,
    ) -> Result<Rendering, RenderFailure> {
        if request.data.len() > self.limits.input_bytes {
            return Err(RenderFailure::InputTooLarge {
                size: request.data.len(),
                limit: self.limits.input_bytes,
            });
        }
        let failed = RenderFailure::Plugin;
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
            .map_err(|error| failed(error.to_string()))?;
        store.set_epoch_deadline(deadline_ticks);
        let instance = self.pre.instantiate(&mut store).map_err(|error| {
            // Instantiation runs the guest's start-up code on the render's clock, so a
            // deadline that passes there (a busy machine, a slow start) is the same one.
            failed(if error.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
                DEADLINE_PASSED.to_owned()
            } else {
                format!("could not start: {error:#}")
            })
        })?;
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
            failed(if store.get_fuel().is_ok_and(|fuel| fuel == 0) {
                format!("ran out of time (fuel limit of {})", self.limits.fuel)
            } else if error.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
                DEADLINE_PASSED.to_owned()
            } else {
                // The root cause ("wasm trap: ...") is what an owner can act on; the wasm
                // backtrace above it is noise in a one-line log entry.
                format!("trapped: {}", error.root_cause())
            })
        })?;
        let rendering = outcome.map_err(|error| match error {
            RenderError::InvalidData(reason) => RenderFailure::InvalidInput(reason),
            RenderError::UnsupportedType(reason) => {
                failed(format!("unsupported block type: {reason}"))
            }
            RenderError::Failed(reason) => failed(format!("failed: {reason}")),
        })?;
        if rendering.html.len() > self.limits.output_bytes {
            return Err(failed(format!(
                "output of {} bytes is above the output limit of {} bytes",
                rendering.html.len(),
                self.limits.output_bytes
            )));
        }
        Ok(rendering)
    }

    /// Counts a failure of the plugin itself at `now`; returns true when this one disabled it.
    pub(crate) fn record_failure(&self, threshold: u32, now: Instant) -> bool {
        self.failures_total.fetch_add(1, Ordering::Relaxed);
        let in_a_row = self.failures_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
        if in_a_row < threshold {
            return false;
        }
        let mut disabled_at = self.disabled_at();
        let newly = disabled_at.is_none();
        if newly {
            *disabled_at = Some(now);
        }
        newly
    }

    pub(crate) fn record_success(&self) {
        self.failures_in_a_row.store(0, Ordering::Relaxed);
    }

    /// Whether the plugin is disabled at `now`. A plugin disabled for `cool_down` or longer is
    /// enabled again on probation: its failure count stays one short of the threshold, so
    /// one more failure disables it again while one success clears it.
    pub(crate) fn is_disabled(&self, now: Instant, cool_down: Duration, threshold: u32) -> bool {
        let mut disabled_at = self.disabled_at();
        match *disabled_at {
            None => false,
            Some(at) if now.saturating_duration_since(at) < cool_down => true,
            Some(_) => {
                *disabled_at = None;
                self.failures_in_a_row
                    .store(threshold.saturating_sub(1), Ordering::Relaxed);
                tracing::info!(plugin = %self.name, "plugin enabled again after its cool-down");
                false
            }
        }
    }

    fn disabled_at(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.disabled_at
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }
}
