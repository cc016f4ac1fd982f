//! `cargo xtask test`: every test of the project, in the order that fails fastest.
//!
//! The web unit tests first (seconds, once the packages are in), then the dependency audit
//! (`cargo deny check`: advisories, licences, duplicate versions, sources; `deny.toml`), then
//! Rust unit and property tests, then the native app's bindings (stale check, TypeScript,
//! Python and Kotlin against the compiled library), then the SQL suites (SQLite always,
//! PostgreSQL when `VITRINE_TEST_POSTGRES_URL` is set, and required when `CI=true`), then a short
//! run of schemathesis against the real server, then the browser suite against the real server
//! in headless Chromium with a short run of every fuzz target beside it. The React Native
//! shell's jest suite runs after the web unit tests.

use std::path::Path;
use std::process::Command;
use std::thread;

use anyhow::{Context, Result, anyhow, bail};

use crate::process::{available, run};
use crate::system_packages::Needed;
use crate::web::{self, NPM_ENV};
use crate::workspace;

/// Seconds each fuzz target runs in `cargo xtask test`.
const FUZZ_SECONDS_PER_TARGET: u64 = 5;
/// Schemathesis test cases per operation and phase in `cargo xtask test`.
const API_FUZZ_EXAMPLES: u32 = 10;

/// Where the browser tests expect Chromium; the system package installs it there.
const CHROMIUM: &str = "/usr/bin/chromium";

pub fn run_all() -> Result<()> {
    let root = workspace::root();
    let web_dir = root.join("web");
    let in_ci = std::env::var("CI").is_ok_and(|value| value == "true");
    if in_ci && std::env::var_os("VITRINE_TEST_POSTGRES_URL").is_none() {
        bail!(
            "CI=true but VITRINE_TEST_POSTGRES_URL is not set: the PostgreSQL suite must run in CI"
        );
    }

    web::install()?;
    run(&web_dir, "npm", &["run", "typecheck"], NPM_ENV)?;
    run(&web_dir, "npm", &["test"], NPM_ENV)?;
    audit_dependencies()?;
    web::build()?;
    mobile_shell()?;

    crate::plugins::build()?;
    let mut test_args = vec!["test"];
    test_args.extend(workspace::TEST_SELECTION);
    run(&root, "cargo", &test_args, &[])?;
    // The native app's bindings: the checked-in generated sources are current and their
    // TypeScript type-checks, and Python and Kotlin (on the JVM) call every export on the
    // compiled library.
    crate::bindings::check(false)?;
    crate::bindings::test_python()?;
    crate::bindings::test_kotlin()?;
    let binary = web::debug_server_from_test_build()?;

    crate::api_fuzz::fuzz_built_server(&crate::api_fuzz::Args {
        max_examples: API_FUZZ_EXAMPLES,
    })?;
    ensure_chromium()?;

    // Fuzzing, briefly (what a long run would find is for `cargo xtask fuzz --seconds N`), on
    // a thread beside the browser suite: its instrumented build is minutes of compiling, and
    // the browser tests spend most of their time waiting on pages, so the two overlap well.
    let fuzzing = thread::spawn(|| {
        crate::fuzz::run_targets(&crate::fuzz::Args {
            seconds: FUZZ_SECONDS_PER_TARGET,
            targets: Vec::new(),
        })
    });
    let browsers = web::run_e2e_shards(&binary, web::E2E_SHARDS);
    let fuzzed = fuzzing
        .join()
        .unwrap_or_else(|_| Err(anyhow!("the fuzzing thread panicked")));
    match (browsers, fuzzed) {
        (Ok(()), Ok(())) => {
            eprintln!("==> every test passed");
            Ok(())
        }
        (Err(browsers), Ok(())) => Err(browsers),
        (Ok(()), Err(fuzzed)) => Err(fuzzed),
        (Err(browsers), Err(fuzzed)) => bail!("{browsers:#}\nand fuzzing failed too: {fuzzed:#}"),
    }
}

/// `cargo xtask e2e`: the browser suite alone, for working on it.
pub fn run_e2e() -> Result<()> {
    web::install()?;
    web::build()?;
    crate::plugins::build()?;
    let binary = web::build_debug_server()?;
    ensure_chromium()?;
    web::run_e2e_shards(&binary, web::E2E_SHARDS)
}

/// The React Native shell's checks that need no device: a clean install of its locked
/// packages, the type check and its jest suite (the bridge modules, the envelope contract and
/// the screens with the web view mocked).
fn mobile_shell() -> Result<()> {
    let shell = workspace::root().join("mobile-shell");
    run(&shell, "npm", &["ci", "--no-audit", "--no-fund"], NPM_ENV)?;
    run(&shell, "npm", &["run", "typecheck"], NPM_ENV)?;
    run(&shell, "npm", &["test", "--", "--ci"], NPM_ENV)
}

/// `cargo deny check` over the workspace, installing cargo-deny first when it is missing (a
/// few minutes of building, once per machine). Bans, licences and sources need nothing from the
/// network and must pass. Advisories need the RustSec database, fetched from its git host each
/// run: a found advisory fails, but a machine that cannot reach the host (a sandbox that only
/// reaches package registries) gets a warning, since there is nothing to check against.
fn audit_dependencies() -> Result<()> {
    let root = workspace::root();
    if !available("cargo-deny") {
        run(
            &root,
            "cargo",
            &["install", "--quiet", "--locked", "cargo-deny"],
            &[],
        )?;
    }
    run(
        &root,
        "cargo",
        // Errors only: the duplicate-version warnings run to thousands of lines of graphs, and
        // `cargo deny check bans` shows them on request.
        &[
            "deny",
            "--log-level",
            "error",
            "check",
            "bans",
            "licenses",
            "sources",
        ],
        &[],
    )?;
    eprintln!("==> cargo deny check advisories");
    let advisories = Command::new("cargo")
        .args(["deny", "check", "advisories"])
        .current_dir(&root)
        .output()
        .context("could not start `cargo deny`")?;
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&advisories.stdout),
        String::from_utf8_lossy(&advisories.stderr)
    );
    eprint!("{report}");
    if advisories.status.success() {
        return Ok(());
    }
    if report.contains("failed to fetch advisory database") {
        eprintln!(
            "warning: the advisory database could not be fetched; advisories were not checked"
        );
        return Ok(());
    }
    bail!(
        "`cargo deny check advisories` found advisories ({})",
        advisories.status
    )
}

/// Installs Debian's Chromium when it is missing; test tools never download a browser.
fn ensure_chromium() -> Result<()> {
    crate::system_packages::ensure(&[Needed {
        package: "chromium",
        present: Path::new(CHROMIUM).exists(),
    }])
}
