//! `experiment-vectors.json`: the core's buckets, variant picks and gating decisions
//! (`vitrine_core::experiments::vectors`), which the browser's bucketing is tested against.

use vitrine_core::experiments::vectors::experiment_vectors;

pub fn render() -> String {
    serde_json::to_string_pretty(&experiment_vectors()).unwrap_or_default() + "\n"
}
