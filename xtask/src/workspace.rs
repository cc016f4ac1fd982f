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

/// What `cargo xtask test` compiles and runs: every crate's libraries, binaries and test
/// targets. The workspace has no doctests, and each crate's empty doctest run would close the
/// log with a "0 passed" that reads as nothing tested. Building with the same selection later
/// reuses every artifact, since the features come out the same.
pub const TEST_SELECTION: [&str; 5] = ["--workspace", "--locked", "--lib", "--bins", "--tests"];

/// Where cargo puts build output: `CARGO_TARGET_DIR` when set, else `target/` at the root.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root().join(dir),
        _ => root().join("target"),
    }
}
