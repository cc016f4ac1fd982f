//! The web front end's install and build steps, shared by `run` and `test`.

use std::path::Path;

use anyhow::Result;

use crate::process::run;
use crate::workspace;

/// Environment for every npm call: no test tool may download a browser of its own.
/// `NO_COLOR` keeps escape codes out of logs: with `CI` set, the test runners colour their
/// output even when it goes to a file.
pub const NPM_ENV: &[(&str, &str)] =
    &[("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"), ("NO_COLOR", "1")];

/// Installs the web's locked npm packages when they are missing or older than the lockfile.
pub fn install() -> Result<()> {
    install_in(&workspace::root().join("web"))
}

/// Installs the locked npm packages of the package in `dir` when they are missing or older
/// than its lockfile.
pub fn install_in(dir: &Path) -> Result<()> {
    let installed = dir.join("node_modules/.package-lock.json");
    let lock = dir.join("package-lock.json");
    let fresh = match (installed.metadata(), lock.metadata()) {
        (Ok(installed), Ok(lock)) => match (installed.modified(), lock.modified()) {
            (Ok(installed), Ok(lock)) => installed >= lock,
            _ => false,
        },
        _ => false,
    };
    if fresh {
        eprintln!("==> npm packages are up to date");
        return Ok(());
    }
    run(dir, "npm", &["ci", "--no-audit", "--no-fund"], NPM_ENV)
}

/// Builds the islands, the runtime and the stylesheet into web/dist.
pub fn build() -> Result<()> {
    run(
        &workspace::root().join("web"),
        "npm",
        &["run", "build"],
        NPM_ENV,
    )
}

/// Builds the debug `vitrine` the browser suites run against (it embeds web/dist), and the
/// fake of Stripe one of them starts beside it; returns the server's path.
pub fn build_debug_server() -> Result<String> {
    run(
        &workspace::root(),
        "cargo",
        &["build", "--package", "vitrine", "--locked"],
        &[],
    )?;
    // The fake of Stripe the Stripe checkout's browser test runs beside the server; it lands
    // next to the server's binary, where the test looks for it.
    run(
        &workspace::root(),
        "cargo",
        &[
            "build",
            "--package",
            "vitrine-services",
            "--features",
            "test-support",
            "--bin",
            "vitrine-stripe-fake",
            "--locked",
        ],
        &[],
    )?;
    let binary = workspace::target_dir().join("debug/vitrine");
    Ok(binary.to_string_lossy().into_owned())
}

/// Runs the web package's `script` (Playwright) against the server at `binary`.
pub fn run_against_server(binary: &str, script: &str) -> Result<()> {
    let mut envs = NPM_ENV.to_vec();
    envs.push(("VITRINE_BIN", binary));
    run(
        &workspace::root().join("web"),
        "npm",
        &["run", script],
        &envs,
    )
}
