//! Debian packages the tests run with (Chromium for the browser suites, a JDK and JNA for the
//! Kotlin binding tests), installed with apt-get when missing: no test tool downloads a
//! browser or a runtime of its own, and a clean CI machine needs no setup script.

use anyhow::{Result, bail};

use crate::process::{available, run};
use crate::workspace;

/// A Debian package and whether what the tests need from it is already on the machine.
pub struct Needed {
    pub package: &'static str,
    pub present: bool,
}

/// Installs, in one apt-get run, every package of `needed` that is not present.
pub fn ensure(needed: &[Needed]) -> Result<()> {
    let missing: Vec<&str> = needed
        .iter()
        .filter(|needed| !needed.present)
        .map(|needed| needed.package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    if !available("apt-get") {
        bail!(
            "missing system packages: {} (Debian's names; install your system's equivalents)",
            missing.join(", ")
        );
    }
    let root = workspace::root();
    run(&root, "apt-get", &["update", "-qq"], &[])?;
    let install = [&["install", "-y", "-qq"][..], &missing].concat();
    if run(&root, "apt-get", &install, &[]).is_err() {
        // dpkg occasionally reports a missing archive on the first try; once more is enough.
        run(&root, "apt-get", &install, &[])?;
    }
    Ok(())
}
