//! `cargo xtask plugins`: builds the WebAssembly plugins (the examples and the hostile test
//! programs) and lays each out as an installable directory, `plugin.toml` beside its
//! component, in `plugins/guests/target/plugins/`. The host's tests load them from there.

use std::path::Path;

use anyhow::{Context, Result};

use crate::process::run;
use crate::workspace;

/// The target plugins are compiled for: a component straight from the linker.
const TARGET: &str = "wasm32-wasip2";

/// Installs the WebAssembly target when missing, builds every guest crate and assembles the
/// plugin directories.
pub fn build() -> Result<()> {
    let root = workspace::root();
    let guests = root.join("plugins/guests");
    // rustup does nothing when the target is already installed, so a clean CI machine and a
    // developer's machine run the same step.
    run(&root, "rustup", &["target", "add", TARGET], &[])?;
    // The target directory is named explicitly: a CARGO_TARGET_DIR in the environment would
    // otherwise move the build, and the host looks for the plugins under plugins/guests.
    let target_dir = guests.join("target");
    let target_dir_text = target_dir.to_string_lossy();
    run(
        &guests,
        "cargo",
        &[
            "build",
            "--release",
            "--locked",
            "--target",
            TARGET,
            "--target-dir",
            &target_dir_text,
        ],
        &[],
    )?;
    let built = target_dir.join(TARGET).join("release");
    let out = guests.join("target/plugins");
    for (folder, prefix) in [
        ("examples", "vitrine_plugin_"),
        ("test-programs", "vitrine_test_program_"),
    ] {
        for entry in std::fs::read_dir(root.join("plugins").join(folder))? {
            let source = entry?.path();
            let name = source
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or_default()
                .to_owned();
            let wasm = built.join(format!("{prefix}{}.wasm", name.replace('-', "_")));
            assemble(&source, &wasm, &out.join(&name), &name)?;
        }
    }
    eprintln!("==> plugins built in {}", out.display());
    Ok(())
}

fn assemble(source: &Path, wasm: &Path, dest: &Path, name: &str) -> Result<()> {
    std::fs::create_dir_all(dest)?;
    std::fs::copy(source.join("plugin.toml"), dest.join("plugin.toml"))
        .with_context(|| format!("copying the manifest of {name}"))?;
    std::fs::copy(wasm, dest.join(format!("{name}.wasm")))
        .with_context(|| format!("copying {}", wasm.display()))?;
    Ok(())
}
