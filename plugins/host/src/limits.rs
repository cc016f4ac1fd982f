//! The limits every render runs under: published defaults, per-plugin overrides, a ceiling.

use serde::Deserialize;

/// What one render of one block may use.
///
/// The defaults follow the range Shopify publishes for Functions: about 10 MB of memory, a
/// 256 KB binary and a tight time budget. Time is counted in fuel (roughly one unit per
/// WebAssembly instruction) rather than wall-clock time, so a limit gives the same result on
/// a slow machine as on a fast one and a busy server cannot make a healthy plugin fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Instructions a render may execute.
    pub fuel: u64,
    /// Linear memory, in bytes.
    pub memory_bytes: usize,
    /// Elements in the instance's tables.
    pub table_elements: usize,
    /// Bytes of HTML a render may return.
    pub output_bytes: usize,
    /// Bytes of block data a render may receive.
    pub input_bytes: usize,
    /// Bytes of the component file.
    pub binary_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            fuel: 20_000_000,
            memory_bytes: 10 * 1024 * 1024,
            table_elements: 10_000,
            output_bytes: 256 * 1024,
            input_bytes: 64 * 1024,
            binary_bytes: 256 * 1024,
        }
    }
}

/// The most any plugin may ask for, whatever its manifest says.
pub const CEILING: Limits = Limits {
    fuel: 200_000_000,
    memory_bytes: 64 * 1024 * 1024,
    table_elements: 100_000,
    output_bytes: 1024 * 1024,
    input_bytes: 1024 * 1024,
    binary_bytes: 4 * 1024 * 1024,
};

/// The `[limits]` table of a manifest: each field replaces the default when present.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitOverrides {
    pub fuel: Option<u64>,
    pub memory_bytes: Option<usize>,
    pub table_elements: Option<usize>,
    pub output_bytes: Option<usize>,
    pub input_bytes: Option<usize>,
    pub binary_bytes: Option<usize>,
}

impl Limits {
    /// Applies a manifest's overrides, refusing any above [`CEILING`].
    pub fn with_overrides(self, overrides: &LimitOverrides) -> Result<Self, String> {
        fn pick<T: Copy + PartialOrd + std::fmt::Display>(
            name: &str,
            default: T,
            wanted: Option<T>,
            ceiling: T,
        ) -> Result<T, String> {
            match wanted {
                Some(value) if value > ceiling => Err(format!(
                    "limit {name} = {value} is above the ceiling of {ceiling}"
                )),
                Some(value) => Ok(value),
                None => Ok(default),
            }
        }
        Ok(Self {
            fuel: pick("fuel", self.fuel, overrides.fuel, CEILING.fuel)?,
            memory_bytes: pick(
                "memory_bytes",
                self.memory_bytes,
                overrides.memory_bytes,
                CEILING.memory_bytes,
            )?,
            table_elements: pick(
                "table_elements",
                self.table_elements,
                overrides.table_elements,
                CEILING.table_elements,
            )?,
            output_bytes: pick(
                "output_bytes",
                self.output_bytes,
                overrides.output_bytes,
                CEILING.output_bytes,
            )?,
            input_bytes: pick(
                "input_bytes",
                self.input_bytes,
                overrides.input_bytes,
                CEILING.input_bytes,
            )?,
            binary_bytes: pick(
                "binary_bytes",
                self.binary_bytes,
                overrides.binary_bytes,
                CEILING.binary_bytes,
            )?,
        })
    }
}
