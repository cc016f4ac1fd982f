//! `vitrine plugin build [DIR]`: compiles a plugin project to a WebAssembly component for
//! wasm32-wasip2 and puts it beside its plugin.toml, under the file name the manifest gives.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use vitrine_plugins::Manifest;

/// The target plugins are compiled for: the linker writes a component directly.
pub const TARGET: &str = "wasm32-wasip2";

/// Builds the project in `dir`; returns the path of the component it wrote.
pub fn build(dir: &Path) -> anyhow::Result<PathBuf> {
    let manifest_path = dir.join("plugin.toml");
    let text = std::fs::read_to_string(&manifest_path)
        .with_context(|| format!("could not read {}", manifest_path.display()))?;
    let manifest = Manifest::parse(&text)
        .with_context(|| format!("{} is not valid", manifest_path.display()))?;
    let package = package_name(dir)?;
    ensure_target()?;
    // The target directory is the project's own, so a CARGO_TARGET_DIR in the environment
    // cannot move the component away from where it is looked for.
    let target_dir = dir.join("target");
    let status = Command::new(cargo())
        .current_dir(dir)
        .args(["build", "--release", "--target", TARGET, "--target-dir"])
        .arg(&target_dir)
        .status()
        .context("could not run cargo; is Rust installed (https://rustup.rs)?")?;
    if !status.success() {
        bail!("cargo build failed ({status}); the errors are above");
    }
    let built = target_dir
        .join(TARGET)
        .join("release")
        .join(format!("{}.wasm", package.replace('-', "_")));
    let component = dir.join(&manifest.component);
    std::fs::copy(&built, &component).with_context(|| {
        format!(
            "could not copy {} to {}",
            built.display(),
            component.display()
        )
    })?;
    Ok(component)
}

/// Installs the WebAssembly target with rustup when it is missing.
fn ensure_target() -> anyhow::Result<()> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .context("could not run rustup, which installs the wasm32-wasip2 target")?;
    let installed = String::from_utf8_lossy(&installed.stdout);
    if installed.lines().any(|line| line.trim() == TARGET) {
        return Ok(());
    }
    eprintln!("installing the {TARGET} target with rustup");
    let status = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .context("could not run rustup")?;
    if !status.success() {
        bail!("`rustup target add {TARGET}` failed ({status})");
    }
    Ok(())
}

/// The `[package] name` of the project's Cargo.toml.
fn package_name(dir: &Path) -> anyhow::Result<String> {
    let path = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("could not read {}", path.display()))?;
    let value: toml::Table =
        toml::from_str(&text).with_context(|| format!("{} is not valid", path.display()))?;
    value
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str)
        .map(str::to_owned)
        .with_context(|| format!("{} has no [package] name", path.display()))
}

/// The cargo that runs this command when there is one (`cargo run`), otherwise the one on
/// the PATH.
fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}
