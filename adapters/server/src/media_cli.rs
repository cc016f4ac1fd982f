//! `vitrine media warm`: makes, ahead of the first visitor, every image variant the published
//! pages' `srcset`s name (each spec width narrower than the original, as WebP and in the
//! original's format), into the same disk cache `vitrine serve` reads, with a progress bar.
//! Variants already on disk are skipped, so a second run is quick; refused originals are
//! listed with their reason and the run goes on.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use vitrine_core::site::{ImageWidth, MediaFile};
use vitrine_media::{
    DiskCache, ImageLimits, OutputFormat, VariantKey, content_hash, read_header, render_variant,
};

use crate::cli::MediaCommand;
use crate::database;

/// Where variants are kept, under the data directory.
pub const MEDIA_CACHE_DIR: &str = "media-cache";

pub async fn run(command: MediaCommand) -> anyhow::Result<()> {
    let MediaCommand::Warm(args) = command;
    let database = database::open(&args.database).await?;
    let repository = database.repository();
    let images = vitrine_core::pages::published_images(repository.as_ref())
        .await
        .context("could not read the published pages")?;
    let mut files = Vec::new();
    for path in images.keys() {
        match repository.media(path).await {
            Ok(Some(file)) => files.push(file),
            Ok(None) => eprintln!("{path}: the page names it, but no such file is stored"),
            Err(error) => return Err(error).context(format!("could not read {path}")),
        }
    }
    database.close().await;
    let disk = DiskCache::open(args.database.data_dir.join(MEDIA_CACHE_DIR))
        .context("could not create the media cache directory")?;
    let summary = tokio::task::spawn_blocking(move || warm(&files, &disk)).await?;
    println!(
        "{} variants made, {} already cached, {} images refused",
        summary.made, summary.cached, summary.refused
    );
    Ok(())
}

#[derive(Debug, Default)]
pub struct Summary {
    pub made: usize,
    pub cached: usize,
    pub refused: usize,
}

/// The variants of `file` its `srcset` names.
fn planned(file: &MediaFile, limits: &ImageLimits) -> Result<Vec<VariantKey>, String> {
    let header = match read_header(&file.bytes, limits) {
        Ok(header) => header,
        // SVGs and icons are served as they are: nothing to make.
        Err(vitrine_media::ImageError::NotAnImage) => return Ok(Vec::new()),
        Err(refusal) => return Err(refusal.to_string()),
    };
    let Some(original) = OutputFormat::original(header.kind).filter(|_| !header.animated) else {
        return Ok(Vec::new());
    };
    let hash = content_hash(&file.bytes);
    let mut keys: Vec<VariantKey> = ImageWidth::below(header.width)
        .flat_map(|width| {
            [OutputFormat::Webp, original].map(|format| VariantKey {
                hash: hash.clone(),
                width: Some(width.pixels()),
                format,
            })
        })
        .collect();
    // A WebP original's two formats are one.
    keys.dedup();
    Ok(keys)
}

/// Makes the missing variants of `files` into `disk`, one worker per core.
pub fn warm(files: &[MediaFile], disk: &DiskCache) -> Summary {
    let limits = ImageLimits::default();
    let mut summary = Summary::default();
    let mut jobs = Vec::new();
    for file in files {
        match planned(file, &limits) {
            Ok(keys) => jobs.extend(keys.into_iter().map(|key| (file, key))),
            Err(reason) => {
                eprintln!("{}: {reason}", file.path);
                summary.refused += 1;
            }
        }
    }
    let bar = ProgressBar::new(jobs.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} variants, {eta} left {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(&mut summary);
    let workers = std::thread::available_parallelism().map_or(2, |cores| cores.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some((file, key)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = make(file, key, disk, &limits);
                    let mut counts = counts.lock().unwrap_or_else(|poison| poison.into_inner());
                    match outcome {
                        Outcome::Made => counts.made += 1,
                        Outcome::Cached => counts.cached += 1,
                        Outcome::Refused(reason) => {
                            bar.println(format!("{}: {reason}", file.path));
                            counts.refused += 1;
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    summary
}

enum Outcome {
    Made,
    Cached,
    Refused(String),
}

fn make(file: &MediaFile, key: &VariantKey, disk: &DiskCache, limits: &ImageLimits) -> Outcome {
    if matches!(disk.get(key), Ok(Some(_))) {
        return Outcome::Cached;
    }
    match render_variant(&file.bytes, key.width, key.format, limits) {
        Ok(variant) => match disk.put(key, &variant.bytes) {
            Ok(()) => Outcome::Made,
            Err(error) => Outcome::Refused(format!("could not store a variant: {error}")),
        },
        Err(refusal) => Outcome::Refused(refusal.to_string()),
    }
}

/// The disk cache `vitrine serve` keeps variants in, under `data_dir`.
pub fn disk_cache(data_dir: &Path) -> anyhow::Result<DiskCache> {
    DiskCache::open(data_dir.join(MEDIA_CACHE_DIR)).with_context(|| {
        format!(
            "could not create the media cache in {}",
            data_dir.join(MEDIA_CACHE_DIR).display()
        )
    })
}
