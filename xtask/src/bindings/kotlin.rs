//! The Kotlin side of the bindings: tests compiled with the Kotlin compiler pinned in
//! `bindings/package.json` and run on the JVM against the real compiled library through JNA,
//! the way an Android app loads it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::generate::{self, Profile};
use crate::process::{available, run};
use crate::system_packages::{self, Needed};
use crate::web;
use crate::workspace;

/// The Kotlin tests, relative to the workspace root.
const KOTLIN_TESTS_DIR: &str = "bindings/tests/kotlin";
/// Where Debian's `libjna-java` puts JNA, which uniffi's generated Kotlin calls the library with.
const JNA_JAR: &str = "/usr/share/java/jna.jar";
/// The class whose `main` runs every Kotlin test (`Harness.kt`).
const MAIN_CLASS: &str = "app.vitrine.bindings.tests.HarnessKt";

/// Builds the library, compiles its freshly generated Kotlin with the tests, and runs them.
pub fn test() -> Result<()> {
    let bindings = workspace::root().join("bindings");
    system_packages::ensure(&[
        Needed {
            package: "default-jdk-headless",
            present: available("java"),
        },
        Needed {
            package: "libjna-java",
            present: Path::new(JNA_JAR).exists(),
        },
    ])?;
    // The compiler comes from npm (Debian's `kotlin` is too old for the generated code).
    web::install_in(&bindings)?;
    let compiler_lib = bindings.join("node_modules/kotlin-compiler/lib");

    let library = generate::build_library(Profile::Debug)?;
    let out = workspace::target_dir().join("bindings/kotlin");
    let sources = out.join("src");
    let classes = out.join("classes");
    for dir in [&sources, &classes] {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("clearing {}", dir.display()))?;
        }
    }
    generate::uniffi_generate(&library, "kotlin", &sources)?;

    let mut compile: Vec<String> = vec![
        bindings
            .join("node_modules/kotlin-compiler/bin/kotlinc")
            .to_string_lossy()
            .into_owned(),
        "-nowarn".to_owned(),
        "-classpath".to_owned(),
        class_path(&[PathBuf::from(JNA_JAR), compiler_lib.join("kotlin-test.jar")])?,
        "-d".to_owned(),
        classes.to_string_lossy().into_owned(),
    ];
    compile.extend(kotlin_files(&sources)?);
    compile.extend(kotlin_files(&workspace::root().join(KOTLIN_TESTS_DIR))?);
    // Through bash: the package's scripts have not always kept their executable bit.
    let compile: Vec<&str> = compile.iter().map(String::as_str).collect();
    run(&workspace::root(), "bash", &compile, &[])?;

    let library_dir = library.parent().context("the library has a directory")?;
    let library_path = format!("-Djna.library.path={}", library_dir.display());
    let class_path = class_path(&[
        classes,
        compiler_lib.join("kotlin-stdlib.jar"),
        compiler_lib.join("kotlin-test.jar"),
        PathBuf::from(JNA_JAR),
    ])?;
    run(
        &workspace::root(),
        "java",
        &[&library_path, "-classpath", &class_path, MAIN_CLASS],
        &[],
    )
}

/// Every `.kt` file under `dir`, in a stable order.
fn kotlin_files(dir: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in
            fs::read_dir(&current).with_context(|| format!("reading {}", current.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "kt") {
                files.push(path.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The JVM's class path of `entries`.
fn class_path(entries: &[PathBuf]) -> Result<String> {
    let joined = std::env::join_paths(entries).context("a class path entry holds a separator")?;
    Ok(joined.to_string_lossy().into_owned())
}
