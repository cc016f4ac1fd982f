//! Building the bindings library and generating its foreign-language sources.

use std::collections::{BTreeMap, BTreeSet};
use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::process::run;
use crate::workspace;

/// The checked-in generated sources, relative to the workspace root.
pub const GENERATED_DIR: &str = "bindings/generated";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Debug,
    Release,
}

impl Profile {
    fn dir(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Release => "release",
        }
    }
}

/// Builds the cdylib and the `uniffi-bindgen` binary beside it; returns the library's path.
pub fn build_library(profile: Profile) -> Result<PathBuf> {
    let mut args = vec![
        "build",
        "--package",
        "vitrine-bindings",
        "--features",
        "cli",
        "--locked",
    ];
    if profile == Profile::Release {
        args.push("--release");
    }
    run(&workspace::root(), "cargo", &args, &[])?;
    Ok(workspace::target_dir()
        .join(profile.dir())
        .join(format!("{DLL_PREFIX}vitrine_bindings{DLL_SUFFIX}")))
}

/// Generates one language's sources from the built library with uniffi's own generator.
pub fn uniffi_generate(library: &Path, language: &str, out: &Path) -> Result<()> {
    let profile_dir = library.parent().context("the library has a directory")?;
    let bindgen = profile_dir.join(format!("uniffi-bindgen{}", std::env::consts::EXE_SUFFIX));
    let (library, out) = (library.to_string_lossy(), out.to_string_lossy());
    let args = [
        "generate",
        "--library",
        &library,
        "--language",
        language,
        "--no-format",
        "--out-dir",
        &out,
    ];
    run(&workspace::root(), &bindgen.to_string_lossy(), &args, &[])
}

/// Writes the generated sources into `out`: Kotlin, Swift, and when `react_native` the React
/// Native package (uniffi-bindgen-react-native, installed from `bindings/package-lock.json`).
pub fn generate_all(library: &Path, out: &Path, react_native: bool) -> Result<()> {
    if out.exists() {
        fs::remove_dir_all(out).with_context(|| format!("clearing {}", out.display()))?;
    }
    uniffi_generate(library, "kotlin", &out.join("kotlin"))?;
    uniffi_generate(library, "swift", &out.join("swift"))?;
    if react_native {
        super::react_native::generate(library, out)?;
    }
    Ok(())
}

/// The paths, relative to the directories, of files that are missing, extra or different.
pub fn differences(fresh: &Path, checked_in: &Path) -> Result<Vec<String>> {
    let (fresh, checked_in) = (files_under(fresh)?, files_under(checked_in)?);
    let paths: BTreeSet<&String> = fresh
        .keys()
        .chain(checked_in.keys())
        .filter(|path| fresh.get(*path) != checked_in.get(*path))
        .collect();
    Ok(paths.into_iter().cloned().collect())
}

/// Replaces the checked-in sources with the fresh ones.
pub fn replace(fresh: &Path, checked_in: &Path) -> Result<()> {
    if checked_in.exists() {
        fs::remove_dir_all(checked_in)
            .with_context(|| format!("clearing {}", checked_in.display()))?;
    }
    for (path, contents) in files_under(fresh)? {
        let target = checked_in.join(&path);
        if let Some(dir) = target.parent() {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        fs::write(&target, contents).with_context(|| format!("writing {}", target.display()))?;
        println!("wrote {GENERATED_DIR}/{path}");
    }
    Ok(())
}

/// Every file under `dir` by its `/`-separated relative path; none when `dir` does not exist.
pub fn files_under(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        let Ok(entries) = fs::read_dir(&current) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path.strip_prefix(dir)?.components();
            let relative: Vec<_> = relative
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            let contents =
                fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
            files.insert(relative.join("/"), contents);
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_name_missing_extra_and_changed_files() {
        let base =
            std::env::temp_dir().join(format!("vitrine-bindings-diff-{}", std::process::id()));
        let (fresh, checked_in) = (base.join("fresh"), base.join("checked-in"));
        let write = |dir: &Path, path: &str, text: &str| {
            let file = dir.join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        };
        write(&fresh, "swift/same.swift", "a");
        write(&checked_in, "swift/same.swift", "a");
        write(&fresh, "kotlin/app/changed.kt", "new");
        write(&checked_in, "kotlin/app/changed.kt", "old");
        write(&fresh, "react-native/ts/missing.ts", "x");
        write(&checked_in, "react-native/ts/extra.ts", "x");

        let stale = differences(&fresh, &checked_in).unwrap();
        fs::remove_dir_all(&base).unwrap();
        assert_eq!(
            stale,
            [
                "kotlin/app/changed.kt",
                "react-native/ts/extra.ts",
                "react-native/ts/missing.ts"
            ]
        );
    }
}
