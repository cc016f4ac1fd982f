//! Running the tools a task needs, with the command echoed and failures explained.

use std::fs::{self, File};
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

/// Runs `program args...` in `dir` with its output written to `log` instead of the terminal,
/// for tools that print thousands of progress lines. Success prints the log's last line; a
/// failure prints its last lines, so the cause shows without opening the file.
pub fn run_logged(
    dir: &Path,
    program: &str,
    args: &[&str],
    envs: &[(&str, &str)],
    log: &Path,
) -> Result<String> {
    const TAIL_ON_FAILURE: usize = 60;
    let line = format!("{program} {}", args.join(" "));
    eprintln!(
        "==> {line}   (in {}, output in {})",
        display_relative(dir),
        display_relative(log)
    );
    let file = File::create(log).with_context(|| format!("creating {}", log.display()))?;
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .envs(envs.iter().copied())
        .stdout(file.try_clone()?)
        .stderr(file)
        .status()
        .with_context(|| format!("could not start `{program}`: is it installed and on PATH?"))?;
    let output = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = output.lines().collect();
    if !status.success() {
        let tail = &lines[lines.len().saturating_sub(TAIL_ON_FAILURE)..];
        eprintln!("{}", tail.join("\n"));
        bail!(
            "`{line}` failed ({status}); its whole output is in {}",
            log.display()
        );
    }
    Ok(lines
        .last()
        .map(|last| (*last).to_owned())
        .unwrap_or_default())
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
