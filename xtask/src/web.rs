//! The web front end's install and build steps, shared by `run` and `test`.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::{self, JoinHandle};

use anyhow::{Context, Result, bail};

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

/// How many Playwright processes the browser suite is split over in `cargo xtask test`. Most
/// of a browser test is waiting (for pages, animations and time-outs), so two shards on two
/// cores take little more than half the time of one.
pub const E2E_SHARDS: u16 = 2;
/// The first shard's server port; each further shard adds this much, which leaves room for the
/// extra servers some specs start a few ports above their shard's (mail, Stripe fake).
const E2E_FIRST_PORT: u16 = 18080;
const E2E_PORT_STRIDE: u16 = 100;

/// Runs the browser suite against the server at `binary`, split into `shards` Playwright
/// processes at once. Each shard has its own server, database, ports and results folder, so
/// the shards share nothing; its output lines carry its number. Fails when any shard fails,
/// after every shard has finished.
pub fn run_e2e_shards(binary: &str, shards: u16) -> Result<()> {
    let web_dir = workspace::root().join("web");
    eprintln!("==> npm run e2e, in {shards} shards at once   (in web)");
    let mut running = Vec::new();
    for shard in 1..=shards {
        let port = (E2E_FIRST_PORT + (shard - 1) * E2E_PORT_STRIDE).to_string();
        let results = format!("e2e/.results/shard-{shard}");
        let mut child = Command::new("npm")
            .args(["run", "e2e", "--", &format!("--shard={shard}/{shards}")])
            .current_dir(&web_dir)
            .envs(NPM_ENV.iter().copied())
            .env("VITRINE_BIN", binary)
            .env("VITRINE_E2E_PORT", &port)
            .env("VITRINE_E2E_RESULTS", &results)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .context("could not start `npm`: is it installed and on PATH?")?;
        let prefix = format!("[shard {shard}/{shards}]");
        let copiers = [
            copy_lines(child.stdout.take(), prefix.clone()),
            copy_lines(child.stderr.take(), prefix),
        ];
        running.push((shard, child, copiers));
    }
    let mut failed = Vec::new();
    for (shard, mut child, copiers) in running {
        let status = child.wait().context("waiting for a Playwright shard")?;
        for copier in copiers {
            // A copier ends when its pipe closes; a panic there lost only log lines.
            let _ = copier.join();
        }
        if !status.success() {
            failed.push(format!("shard {shard} ({status})"));
        }
    }
    if !failed.is_empty() {
        bail!("`npm run e2e` failed in {}", failed.join(", "));
    }
    Ok(())
}

/// Prints every line read from `pipe` to standard error with `prefix`, on a thread of its own.
fn copy_lines(pipe: Option<impl Read + Send + 'static>, prefix: String) -> JoinHandle<()> {
    thread::spawn(move || {
        let Some(pipe) = pipe else { return };
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { return };
            eprintln!("{prefix} {line}");
        }
    })
}

/// The debug `vitrine` and the fake of Stripe, as the workspace's test build made them: the
/// same `cargo build` arguments as that build (so it is a no-op after `cargo test --workspace`)
/// rather than `build_debug_server`'s `--package` builds, whose narrower features would compile
/// much of the tree again for the same code. Returns the server's path.
pub fn debug_server_from_test_build() -> Result<String> {
    let mut build_args = vec!["build"];
    build_args.extend(workspace::TEST_SELECTION);
    run(&workspace::root(), "cargo", &build_args, &[])?;
    let debug = workspace::target_dir().join("debug");
    for built in ["vitrine", "vitrine-stripe-fake"] {
        if !debug.join(built).is_file() {
            bail!(
                "the workspace build made no {}",
                debug.join(built).display()
            );
        }
    }
    Ok(debug.join("vitrine").to_string_lossy().into_owned())
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
