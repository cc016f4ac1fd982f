//! Running the tools a task needs, with the command echoed and failures explained.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Runs `program args...` in `dir`, failing with the command line when it does not succeed.
pub fn run(dir: &Path, program: &str, args: &[&str], envs: &[(&str, &str)]) -> Result<()> {
    let line = format!("{program} {}", args.join(" "));
    eprintln!("==> {line}   (in {})", display_relative(dir));
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .status()
        .with_context(|| format!("could not start `{program}`: is it installed and on PATH?"))?;
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Whether `program` can be started at all.
pub fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// Whether `cargo <subcommand>` is installed.
pub fn available_subcommand(subcommand: &str) -> bool {
    Command::new("cargo")
        .args([subcommand, "--version"])
        .output()
        .is_ok_and(|output| output.status.success())
}

fn display_relative(dir: &Path) -> String {
    let root = crate::workspace::root();
    match dir.strip_prefix(&root) {
        Ok(rest) if rest.as_os_str().is_empty() => ".".to_owned(),
        Ok(rest) => rest.display().to_string(),
        Err(_) => dir.display().to_string(),
    }
}
