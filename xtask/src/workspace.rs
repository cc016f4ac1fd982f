//! Where the workspace is, so commands work from any directory.

use std::path::PathBuf;

/// The workspace root: the parent of this crate's directory.
pub fn root() -> PathBuf {
    let manifest_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .map(PathBuf::from)
        .unwrap_or(manifest_dir)
}

/// Where cargo puts build output: `CARGO_TARGET_DIR` when set, else `target/` at the root.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}
