//! `cargo xtask bench --images`: the server's resize pipeline against libvips' `vipsthumbnail`
//! on the same 20 large JPEGs (4000 x 3000, made under `target/bench-images` from the demo
//! site's photographs), to 500 and 1500 px wide, one run each on this machine. Prints images
//! per second, peak memory (`/usr/bin/time -v`) and output bytes as a Markdown table for
//! BENCHMARKS.md.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::process::run;
use crate::workspace;

/// The demo photographs the large JPEGs are made from.
const SOURCES: [&str; 4] = [
    "adapters/demo-site/media/gallery-tile-study.webp",
    "adapters/demo-site/media/gallery-throwing-rings.webp",
    "adapters/demo-site/media/journal-lisbon-light.webp",
    "adapters/demo-site/media/hero-shelf.webp",
];

pub fn run_image_benchmark() -> Result<()> {
    let root = workspace::root();
    if which("vipsthumbnail").is_none() {
        bail!("vipsthumbnail is missing: install it with `apt-get install -y libvips-tools`");
    }
    run(
        &root,
        "cargo",
        &[
            "build",
            "--release",
            "-p",
            "vitrine-media",
            "--example",
            "thumbnail",
        ],
        &[],
    )?;
    let thumbnail = root.join("target/release/examples/thumbnail");
    let dir = root.join("target/bench-images");
    let originals = dir.join("originals");
    if !originals.join("large-19.jpg").exists() {
        let mut args = vec!["generate".to_owned(), path(&originals)];
        args.extend(SOURCES.iter().map(|source| path(&root.join(source))));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&root, &path(&thumbnail), &args, &[])?;
    }
    let mut files: Vec<String> = std::fs::read_dir(&originals)?
        .filter_map(|entry| entry.ok().map(|entry| path(&entry.path())))
        .filter(|name| name.ends_with(".jpg"))
        .collect();
    files.sort();
    println!("| tool | width | images/s | wall time | peak memory | output bytes |");
    println!("|---|---|---|---|---|---|");
    for width in [500u32, 1500] {
        let ours = dir.join(format!("vitrine-{width}"));
        let mut args = vec!["resize".to_owned(), width.to_string(), path(&ours)];
        args.extend(files.iter().cloned());
        report("vitrine", width, &files, &ours, &path(&thumbnail), &args)?;
        let theirs = dir.join(format!("vips-{width}"));
        std::fs::create_dir_all(&theirs)?;
        // The same output as ours: JPEG quality 82, metadata stripped, width fixed.
        let mut args = vec![
            "-s".to_owned(),
            format!("{width}x"),
            "-o".to_owned(),
            format!("{}/%s.jpg[Q=82,strip]", path(&theirs)),
        ];
        args.extend(files.iter().cloned());
        report(
            "vipsthumbnail",
            width,
            &files,
            &theirs,
            "vipsthumbnail",
            &args,
        )?;
    }
    Ok(())
}

/// Runs `program` under `/usr/bin/time -v` and prints its row.
fn report(
    tool: &str,
    width: u32,
    files: &[String],
    out: &Path,
    program: &str,
    args: &[String],
) -> Result<()> {
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out)?;
    let started = Instant::now();
    let output = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(program)
        .args(args)
        .output()
        .context("running /usr/bin/time (Debian package `time`)")?;
    let elapsed = started.elapsed().as_secs_f64();
    if !output.status.success() {
        bail!("{tool} failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak_kb: u64 = stderr
        .lines()
        .find_map(|line| {
            line.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|kb| kb.trim().parse().ok())
        .unwrap_or(0);
    let bytes: u64 = std::fs::read_dir(out)?
        .filter_map(|entry| entry.ok()?.metadata().ok())
        .map(|meta| meta.len())
        .sum();
    println!(
        "| {tool} | {width} | {:.1} | {elapsed:.2} s | {:.0} MB | {} |",
        files.len() as f64 / elapsed,
        peak_kb as f64 / 1024.0,
        bytes
    );
    Ok(())
}

fn path(path: &Path) -> String {
    path.display().to_string()
}

fn which(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
    })
}
