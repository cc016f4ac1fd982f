//! `cargo xtask test`: every test of the project, in the order that fails fastest.
//!
//! The dependency audit first (`cargo deny check`: advisories, licences, duplicate versions,
//! sources; `deny.toml`), then unit and property tests, then the SQL suites (SQLite always,
//! PostgreSQL when `VITRINE_TEST_POSTGRES_URL` is set, and required when `CI=true`), then the
//! browser suite against the real server in headless Chromium.

use std::path::Path;

use anyhow::{Result, bail};

use crate::process::{available, run};
use crate::web::{self, NPM_ENV};
use crate::workspace;

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

    audit_dependencies()?;
    web::install()?;
    run(&web_dir, "npm", &["run", "typecheck"], NPM_ENV)?;
    run(&web_dir, "npm", &["test"], NPM_ENV)?;
    web::build()?;

    crate::plugins::build()?;
    run(&root, "cargo", &["test", "--workspace", "--locked"], &[])?;
    run(
        &root,
        "cargo",
        &["build", "--package", "vitrine", "--locked"],
        &[],
    )?;

    ensure_chromium()?;
    let binary = workspace::target_dir().join("debug/vitrine");
    let binary = binary.to_string_lossy();
    let mut envs = NPM_ENV.to_vec();
    envs.push(("VITRINE_BIN", &binary));
    run(&web_dir, "npm", &["run", "e2e"], &envs)?;
    eprintln!("==> every test passed");
    Ok(())
}

/// `cargo deny check` over the workspace, installing cargo-deny first when it is missing (a
/// few minutes of building, once per machine). The advisory database is fetched each run.
fn audit_dependencies() -> Result<()> {
    let root = workspace::root();
    if !available("cargo-deny") {
        run(&root, "cargo", &["install", "--locked", "cargo-deny"], &[])?;
    }
    run(&root, "cargo", &["deny", "check"], &[])
}

/// Installs Debian's Chromium when it is missing; test tools never download a browser.
fn ensure_chromium() -> Result<()> {
    if Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    if !available("apt-get") {
        bail!("Chromium is missing at {CHROMIUM}; install your system's chromium package");
    }
    let root = workspace::root();
    run(&root, "apt-get", &["update", "-qq"], &[])?;
    let install = ["install", "-y", "-qq", "chromium"];
    if run(&root, "apt-get", &install, &[]).is_err() {
        // dpkg occasionally reports a missing archive on the first try; once more is enough.
        run(&root, "apt-get", &install, &[])?;
    }
    Ok(())
}
