//! A plugin's `plugin.toml` is written by its integrator, not by us. Reading it must never
//! panic, and a manifest that reads has a name, claims a block and has limits within the
//! ceilings.

#![no_main]

use libfuzzer_sys::fuzz_target;

// The very files the plugin host compiles; linking the host would instrument all of wasmtime.
#[allow(dead_code)]
#[path = "../../../plugins/host/src/limits.rs"]
mod limits;
#[allow(dead_code)]
#[path = "../../../plugins/host/src/manifest.rs"]
mod manifest;

use manifest::Manifest;

fuzz_target!(|text: &str| {
    let Ok(manifest) = Manifest::parse(text) else {
        return;
    };
    assert!(!manifest.name.trim().is_empty());
    assert!(!manifest.blocks.is_empty());
    manifest
        .limits()
        .expect("a manifest that reads has valid limits");
});
