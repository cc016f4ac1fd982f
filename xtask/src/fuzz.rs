//! `cargo xtask fuzz`: runs the coverage-guided fuzz targets of `property-tests/fuzz` with
//! cargo-fuzz and libFuzzer, each for a bounded time.
//!
//! cargo-fuzz asks the compiler for unstable options, so the targets build with the stable
//! toolchain and `RUSTC_BOOTSTRAP=1` rather than needing a nightly one. The checked-in seeds
//! are read, never written: what the fuzzer learns goes to a working corpus under
//! `target/fuzz/corpus/<target>`, which grows from run to run on the same machine, and an
//! input that crashes a target is written to `target/fuzz/artifacts/<target>/`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::process::{available_subcommand, run, run_logged};
use crate::workspace;

/// Where the fuzz crate lives, relative to the workspace root.
const FUZZ_DIR: &str = "property-tests/fuzz";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How long each target runs, in seconds.
    #[arg(long, default_value_t = 5)]
    pub seconds: u64,
    /// Targets to run (file names in property-tests/fuzz/fuzz_targets); all when none.
    pub targets: Vec<String>,
}

pub fn run_targets(args: &Args) -> Result<()> {
    let root = workspace::root();
    let fuzz_dir = root.join(FUZZ_DIR);
    ensure_cargo_fuzz()?;
    let known = targets(&fuzz_dir)?;
    let chosen = if args.targets.is_empty() {
        known.clone()
    } else {
        for target in &args.targets {
            if !known.contains(target) {
                bail!(
                    "no fuzz target {target}; the targets are {}",
                    known.join(", ")
                );
            }
        }
        args.targets.clone()
    };
    let out = workspace::target_dir().join("fuzz");
    let target_dir = out.join("build");
    let target_dir = target_dir.to_string_lossy();
    let max_time = format!("-max_total_time={}", args.seconds);
    for target in &chosen {
        let corpus = out.join("corpus").join(target);
        let artifacts = out.join("artifacts").join(target);
        fs::create_dir_all(&corpus)?;
        fs::create_dir_all(&artifacts)?;
        let logs = out.join("logs");
        fs::create_dir_all(&logs)?;
        let log = logs.join(format!("{target}.log"));
        let seeds = fuzz_dir.join("corpus").join(target);
        let corpus = corpus.to_string_lossy();
        let seeds = seeds.to_string_lossy();
        // libFuzzer writes new inputs to the first corpus directory only.
        let artifact_prefix = format!("-artifact_prefix={}/", artifacts.to_string_lossy());
        // libFuzzer prints a line per new coverage point: the log keeps them, the terminal
        // gets the closing "Done N runs" line.
        let last_line = run_logged(
            &root,
            "cargo",
            &[
                "fuzz",
                "run",
                "--fuzz-dir",
                FUZZ_DIR,
                "--target-dir",
                &target_dir,
                // Overflow checks on, as in tests; sanitizers off, since the code fuzzed is
                // safe Rust and the time is better spent on more inputs.
                "--debug-assertions",
                "--sanitizer",
                "none",
                target,
                &corpus,
                &seeds,
                "--",
                &max_time,
                &artifact_prefix,
            ],
            &[("RUSTC_BOOTSTRAP", "1")],
            &log,
        )
        .with_context(|| {
            format!(
                "fuzz target {target} failed; the input is in {}",
                artifacts.display()
            )
        })?;
        eprintln!("    {target}: {last_line}");
    }
    eprintln!(
        "==> {} fuzz targets ran {} s each without a finding",
        chosen.len(),
        args.seconds
    );
    Ok(())
}

/// The target names: the files in `fuzz_targets/`, without `.rs`.
fn targets(fuzz_dir: &Path) -> Result<Vec<String>> {
    let dir: PathBuf = fuzz_dir.join("fuzz_targets");
    let mut names = Vec::new();
    for entry in fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|extension| extension == "rs")
            && let Some(stem) = path.file_stem()
        {
            names.push(stem.to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// Installs cargo-fuzz when `cargo fuzz` is missing (about 30 s on a clean machine).
fn ensure_cargo_fuzz() -> Result<()> {
    if available_subcommand("fuzz") {
        return Ok(());
    }
    run(
        &workspace::root(),
        "cargo",
        &["install", "--quiet", "--locked", "cargo-fuzz"],
        &[],
    )
}
