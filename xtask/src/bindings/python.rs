//! The Python side of the bindings: tests and the call-cost benchmark, both against the real
//! compiled library through uniffi's Python bindings, generated fresh into the target directory.

use std::fs;
use std::path::PathBuf;

use anyhow::{Context, Result};

use super::generate::{self, Profile};
use crate::process::run;
use crate::workspace;

/// The Python tests and the benchmark script, relative to the workspace root.
const PYTHON_DIR: &str = "bindings/tests/python";

/// Builds the library, generates its Python module beside a copy of it, and returns the
/// directory to put on Python's path.
fn python_module(profile: Profile) -> Result<PathBuf> {
    let library = generate::build_library(profile)?;
    let out = workspace::target_dir().join(format!("bindings/python-{profile:?}"));
    generate::uniffi_generate(&library, "python", &out)?;
    let name = library.file_name().context("the library has a file name")?;
    fs::copy(&library, out.join(name))
        .with_context(|| format!("copying {} next to its Python module", library.display()))?;
    Ok(out)
}

/// Runs the Python tests (unittest, no packages needed) against the debug library.
pub fn test() -> Result<()> {
    let module = python_module(Profile::Debug)?;
    let module = module.to_string_lossy();
    let root = workspace::root();
    let args = [
        "-m",
        "unittest",
        "discover",
        "-s",
        PYTHON_DIR,
        "-p",
        "test_*.py",
        "-v",
    ];
    run(
        &root,
        "python3",
        &args,
        &[("VITRINE_BINDINGS_PYTHON", &module)],
    )
}

/// Times the same calls through Python and in Rust, both on a release build.
pub fn bench() -> Result<()> {
    let module = python_module(Profile::Release)?;
    let module = module.to_string_lossy();
    let root = workspace::root();
    let script = format!("{PYTHON_DIR}/bench_calls.py");
    run(
        &root,
        "python3",
        &[&script],
        &[("VITRINE_BINDINGS_PYTHON", &module)],
    )?;
    let example = [
        "run",
        "--release",
        "--locked",
        "--package",
        "vitrine-bindings",
    ];
    let example = [
        &example[..],
        &["--features", "cli", "--example", "call_cost"],
    ]
    .concat();
    run(&root, "cargo", &example, &[])
}
