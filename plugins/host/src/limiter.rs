//! The per-render resource limiter: wasmtime's [`StoreLimits`] plus the peak linear memory a
//! render reached, which `vitrine plugin check` reports against the memory limit.

use wasmtime::{ResourceLimiter, StoreLimits};

pub(crate) struct RenderLimiter {
    limits: StoreLimits,
    /// The largest linear memory granted so far, in bytes (initial sizes included, since
    /// instantiation asks the limiter for them too).
    pub(crate) peak_memory_bytes: usize,
}

impl RenderLimiter {
    pub(crate) fn new(limits: StoreLimits) -> Self {
        Self {
            limits,
            peak_memory_bytes: 0,
        }
    }
}

impl ResourceLimiter for RenderLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let granted = self.limits.memory_growing(current, desired, maximum)?;
        if granted {
            self.peak_memory_bytes = self.peak_memory_bytes.max(desired);
        }
        Ok(granted)
    }

    fn memory_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.limits.memory_grow_failed(error)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.limits.table_growing(current, desired, maximum)
    }

    fn table_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.limits.table_grow_failed(error)
    }

    fn instances(&self) -> usize {
        self.limits.instances()
    }

    fn tables(&self) -> usize {
        self.limits.tables()
    }

    fn memories(&self) -> usize {
        self.limits.memories()
    }
}
