//! `vitrine import`: reads a site bundle (a directory, or the demo built into the binary) into
//! the core's file map, lets the core check and convert it, and stores the site in one step.

use std::fs;
use std::path::Path;

use anyhow::Context;
use include_dir::{Dir, include_dir};
use vitrine_core::bundle::{self, BundleFiles, ImportError, ImportSummary};
use vitrine_core::ports::SiteRepository;

use crate::cli::ImportArgs;
use crate::database;

/// The demo site, imported into an empty database and by `vitrine import --demo`.
static DEMO_SITE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/../demo-site");
/// How messages name the demo bundle.
const DEMO_SOURCE: &str = "the built-in demo";

pub async fn run(args: ImportArgs) -> anyhow::Result<()> {
    let (files, source) = match &args.dir {
        Some(dir) => (read_bundle_dir(dir)?, dir.display().to_string()),
        None => (demo_files(), DEMO_SOURCE.to_owned()),
    };
    let database = database::open(&args.database).await?;
    let repository = database.repository();
    let summary = import(&files, repository.as_ref(), &source).await?;
    let title = repository
        .profile()
        .await
        .ok()
        .flatten()
        .map(|profile| profile.settings.site_title)
        .unwrap_or_default();
    println!(
        "Imported \"{title}\" from {source}: {} collections, {} items ({} products), {} media files.",
        summary.collections, summary.items, summary.products, summary.media_files
    );
    database.close().await;
    Ok(())
}

/// Imports the built-in demo site.
pub async fn import_demo(repository: &dyn SiteRepository) -> anyhow::Result<ImportSummary> {
    import(&demo_files(), repository, DEMO_SOURCE).await
}

/// The core checks the whole bundle before it writes, and writes in one transaction, so a
/// refused bundle leaves the stored site as it was.
async fn import(
    files: &BundleFiles,
    repository: &dyn SiteRepository,
    source: &str,
) -> anyhow::Result<ImportSummary> {
    bundle::import(files, repository)
        .await
        .map_err(|error| match error {
            ImportError::Invalid(error) => anyhow::Error::new(error).context(format!(
                "the site bundle {source} was not imported, and the stored site is unchanged"
            )),
            ImportError::Repository(error) => anyhow::Error::new(error)
                .context("could not store the site; the database still holds the previous one"),
        })
}

/// The demo bundle's files.
pub fn demo_files() -> BundleFiles {
    let mut files = BundleFiles::new();
    collect_embedded(&DEMO_SITE, &mut files);
    files
}

fn collect_embedded(dir: &Dir<'static>, files: &mut BundleFiles) {
    for file in dir.files() {
        let path = file.path().to_string_lossy().replace('\\', "/");
        files.insert(path, file.contents().to_vec());
    }
    for child in dir.dirs() {
        collect_embedded(child, files);
    }
}

/// Reads every file below `root`, keyed by its path relative to `root` with `/` separators.
/// Hidden entries (`.git`, `.DS_Store`) are not part of a site and are left out.
pub fn read_bundle_dir(root: &Path) -> anyhow::Result<BundleFiles> {
    let metadata = fs::metadata(root)
        .with_context(|| format!("cannot read the bundle directory {}", root.display()))?;
    if !metadata.is_dir() {
        anyhow::bail!(
            "{} is not a directory; give the directory that holds site.toml",
            root.display()
        );
    }
    let mut files = BundleFiles::new();
    read_dir_into(root, "", &mut files)?;
    Ok(files)
}

fn read_dir_into(dir: &Path, prefix: &str, files: &mut BundleFiles) -> anyhow::Result<()> {
    let entries = fs::read_dir(dir)
        .with_context(|| format!("cannot list the directory {}", dir.display()))?;
    for entry in entries {
        let entry =
            entry.with_context(|| format!("cannot list the directory {}", dir.display()))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            anyhow::bail!(
                "{} has a name that is not valid UTF-8; rename it",
                path.display()
            );
        };
        if name.starts_with('.') {
            continue;
        }
        let relative = format!("{prefix}{name}");
        // Following symbolic links lets a bundle share media kept elsewhere.
        let metadata =
            fs::metadata(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if metadata.is_dir() {
            read_dir_into(&path, &format!("{relative}/"), files)?;
        } else {
            let bytes =
                fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            files.insert(relative, bytes);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_read_with_relative_slash_paths_and_no_hidden_files() {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join("collections/shop")).unwrap();
        fs::create_dir_all(root.path().join(".git")).unwrap();
        fs::write(root.path().join("site.toml"), "title = 1").unwrap();
        fs::write(root.path().join("collections/shop/mug.md"), "+++").unwrap();
        fs::write(root.path().join(".git/HEAD"), "ref").unwrap();
        fs::write(root.path().join(".DS_Store"), "").unwrap();
        let files = read_bundle_dir(root.path()).unwrap();
        let paths: Vec<&str> = files.keys().map(String::as_str).collect();
        assert_eq!(paths, ["collections/shop/mug.md", "site.toml"]);
        assert_eq!(files["site.toml"], b"title = 1");
    }

    #[test]
    fn a_missing_directory_is_named() {
        let error = read_bundle_dir(Path::new("no/such/bundle")).unwrap_err();
        assert!(format!("{error:#}").contains("no/such/bundle"));
    }

    #[test]
    fn the_demo_site_is_embedded_and_valid() {
        let files = demo_files();
        assert!(files.contains_key("site.toml"));
        let site = bundle::parse(&files).expect("the demo bundle is valid");
        assert!(!site.collections.is_empty());
        // The demo shop's rules are its own data, not the server's.
        let rules = &site.settings.store_rules;
        let shipping: Vec<&str> = rules
            .shipping_options
            .iter()
            .map(|o| o.id.as_str())
            .collect();
        assert_eq!(shipping, ["standard"]);
        let coupons: Vec<&str> = rules.coupons.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(coupons, ["WELCOME10"]);
    }
}
