//! Compiled components cached on disk under the hash of their bytes, so a restart
//! deserialises in a fraction of a millisecond instead of compiling again.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

/// Compiles `bytes`, or loads the artifact compiled earlier by a compatible engine.
///
/// The file name holds the content hash and the engine's compatibility hash, so a changed
/// plugin or an upgraded wasmtime never picks up a stale artifact. A damaged cache file is
/// ignored and replaced.
pub(crate) fn compile(
    engine: &Engine,
    bytes: &[u8],
    cache_dir: Option<&Path>,
) -> wasmtime::Result<Component> {
    let Some(cache_dir) = cache_dir else {
        return Component::new(engine, bytes);
    };
    let path = artifact_path(engine, bytes, cache_dir);
    if path.exists() {
        // SAFETY: the cache directory is written only by this function, with the output of
        // `Engine::precompile_component` for an engine with the same compatibility hash.
        if let Ok(component) = unsafe { Component::deserialize_file(engine, &path) } {
            return Ok(component);
        }
    }
    let artifact = engine.precompile_component(bytes)?;
    // SAFETY: the artifact was produced just now by this engine.
    let component = unsafe { Component::deserialize(engine, &artifact)? };
    if std::fs::create_dir_all(cache_dir).is_ok() {
        // Written under a temporary name then renamed, so a concurrent reader never sees half
        // a file. A cache that cannot be written only costs a compile at the next start.
        let partial = path.with_extension(format!("partial-{}", std::process::id()));
        if std::fs::write(&partial, &artifact).is_ok() && std::fs::rename(&partial, &path).is_err()
        {
            let _ = std::fs::remove_file(&partial);
        }
    }
    Ok(component)
}

fn artifact_path(engine: &Engine, bytes: &[u8], cache_dir: &Path) -> PathBuf {
    let content = hex::encode(Sha256::digest(bytes));
    let mut hasher = DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut hasher);
    cache_dir.join(format!("{content}-{:016x}.cwasm", hasher.finish()))
}
