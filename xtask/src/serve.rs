//! `cargo xtask run`: build everything Vitrine needs, then serve the demo storefront, taking
//! orders through the built-in test gateway (`--test-payments`).

use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::process::run;
use crate::web;
use crate::workspace;

/// Builds the web assets, the example block plugins and the release server (which embeds
/// both), then runs `vitrine serve` with `args`.
pub fn run_vitrine(args: &[String]) -> Result<()> {
    let root = workspace::root();
    web::install()?;
    web::build()?;
    crate::plugins::build()?;
    run(
        &root,
        "cargo",
        &["build", "--release", "--package", "vitrine"],
        &[],
    )?;
    let binary = workspace::target_dir().join("release/vitrine");
    let mut command = Command::new(&binary);
    // The demo runs on this machine over plain HTTP; a real deployment sits behind TLS. It
    // takes orders through the built-in test gateway, which a real shop must ask for.
    command
        .arg("serve")
        .arg("--plain-http")
        .arg("--test-payments")
        .args(args)
        .current_dir(&root);
    eprintln!("==> {} serve {}", binary.display(), args.join(" "));
    let status = command
        .status()
        .with_context(|| format!("could not start {}", binary.display()))?;
    if !status.success() {
        bail!("vitrine stopped with {status}");
    }
    Ok(())
}
