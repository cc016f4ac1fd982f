//! The React Native package of the bindings, `bindings/generated/react-native/`: the package
//! manifest and uniffi-bindgen-react-native's configuration (written from here), the TypeScript
//! and JSI C++ bindings, and the turbo-module scaffold that installs them in an app (the codegen
//! spec, the entry point, the Android module with its CMake and Gradle files, the iOS module and
//! its podspec). Generated on Linux; building the native libraries needs the Android NDK or Xcode.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

use crate::process::run;
use crate::web::{self, NPM_ENV};
use crate::workspace;

/// The package's npm name; uniffi-bindgen-react-native derives the module's names from it
/// (`VitrineBindings`, `NativeVitrineBindings`, `react-native-vitrine-bindings.cpp`).
const PACKAGE_NAME: &str = "react-native-vitrine-bindings";
/// The Java package of the Android turbo module.
const ANDROID_PACKAGE: &str = "app.vitrine.bindings.reactnative";
/// The uniffi namespace the bindings are generated for: the library's crate name.
const NAMESPACE: &str = "vitrine_bindings";
/// The versions the package is built against: the mobile shell's React Native, and the
/// uniffi-bindgen-react-native of `bindings/package-lock.json` (its runtime, C++ headers and
/// command, which pins the uniffi version of `bindings/Cargo.toml`).
const REACT_NATIVE_VERSION: &str = "0.86.3";
const UBRN_VERSION: &str = "0.31.0-5";

/// The package's file that records what its sources were generated from (see [`fingerprint`]).
pub const FINGERPRINT_FILE: &str = "generated-from.sha256";

/// Where `ubrn build android|ios` puts the built libraries inside the package (ignored by git),
/// relative to the generated directory: not generated, so never stale.
const BUILD_OUTPUTS: &[&str] = &[
    "react-native/android/src/main/jniLibs/",
    "react-native/android/build/",
    "react-native/build/",
];

/// Whether `path` (relative to the generated directory) is a library built into the package.
pub fn is_build_output(path: &str) -> bool {
    BUILD_OUTPUTS.iter().any(|dir| path.starts_with(dir))
}

/// Writes the whole package into `out/react-native` from the built `library`, once the Kotlin
/// and Swift of `out` are generated.
pub fn generate(library: &Path, out: &Path) -> Result<()> {
    let package = &out.join("react-native");
    let bindings = workspace::root().join("bindings");
    web::install_in(&bindings)?;
    fs::create_dir_all(package).with_context(|| format!("creating {}", package.display()))?;
    write(&package.join("package.json"), &package_json())?;
    // The checked-in configuration finds the crate from the package's own place in the
    // repository, for `ubrn build android|ios` on a machine with the SDKs.
    write(&package.join("ubrn.config.yaml"), &ubrn_config("../../.."))?;

    // The command is called by its path: `npx` in the package would look for it in the
    // package's own (absent) node_modules and fetch it from the registry.
    let ubrn = bindings.join("node_modules/uniffi-bindgen-react-native/bin/cli.cjs");
    let ubrn = ubrn.to_string_lossy();
    let (ts_dir, cpp_dir) = (package.join("ts"), package.join("cpp"));
    let (ts_dir, cpp_dir) = (ts_dir.to_string_lossy(), cpp_dir.to_string_lossy());
    let library = library.to_string_lossy();
    let args = [
        &ubrn,
        "generate",
        "jsi",
        "bindings",
        "--library",
        "--no-format",
        "--ts-dir",
        &ts_dir,
        "--cpp-dir",
        &cpp_dir,
        &library,
    ];
    run(&bindings, "node", &args, NPM_ENV)?;

    // The turbo-module files depend on the crate only for its library's name; a configuration
    // with the crate's absolute place lets them be generated wherever `package` is (the stale
    // check generates into the target directory). The command finds the package by its
    // package.json, from the directory it runs in.
    let run_config = workspace::target_dir().join("bindings/ubrn-generate.config.yaml");
    let root = workspace::root();
    write(&run_config, &ubrn_config(&root.to_string_lossy()))?;
    let run_config = run_config.to_string_lossy();
    let args = [
        &ubrn,
        "generate",
        "jsi",
        "turbo-module",
        "--config",
        &run_config,
        NAMESPACE,
    ];
    run(package, "node", &args, NPM_ENV)?;
    write(&package.join(FINGERPRINT_FILE), &fingerprint(out)?)
}

/// A digest of everything the React Native sources are made from: the library's exports with
/// their documentation (through the Kotlin and Swift that uniffi generates into `out` from the
/// same metadata), the package's manifest and configuration, and the generator's locked version
/// (its entry in `bindings/package-lock.json`). Checking it needs no uniffi-bindgen-react-native,
/// whose first run compiles for minutes, so every CI run can tell that the package is stale.
pub fn fingerprint(out: &Path) -> Result<String> {
    let mut inputs = vec![
        ("package.json".to_owned(), package_json().into_bytes()),
        (
            "ubrn.config.yaml".to_owned(),
            ubrn_config("../../..").into_bytes(),
        ),
        (
            "package-lock.json".to_owned(),
            locked_generator()?.into_bytes(),
        ),
    ];
    for language in ["kotlin", "swift"] {
        for (path, contents) in super::generate::files_under(&out.join(language))? {
            inputs.push((format!("{language}/{path}"), contents));
        }
    }
    let mut digest = Sha256::new();
    for (name, contents) in &inputs {
        // Each input's name and length first, so that no two sets of inputs hash alike.
        digest.update(format!("{name}\n{}\n", contents.len()));
        digest.update(contents);
    }
    let hex: String = digest
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    Ok(format!("{hex}\n"))
}

/// Type-checks the generated TypeScript and the app's calls of every export
/// (`bindings/tsconfig.json`) against uniffi-bindgen-react-native's runtime types.
pub fn typecheck() -> Result<()> {
    let bindings = workspace::root().join("bindings");
    web::install_in(&bindings)?;
    run(
        &bindings,
        "npx",
        &["tsc", "--noEmit", "-p", "tsconfig.json"],
        NPM_ENV,
    )
}

/// The package's manifest: its entry point, the codegen configuration React Native builds the
/// turbo module's spec from, and what it needs from the app. The generated TypeScript imports
/// its runtime as `@ubjs/core`, the runtime inside uniffi-bindgen-react-native's package, so
/// the manifest installs that package under the name too and the app needs no module mapping.
fn package_json() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let license = env!("CARGO_PKG_LICENSE");
    // The repository is required by the generator; the podspec's source is unused for a pod
    // installed by path.
    format!(
        r#"{{
  "name": "{PACKAGE_NAME}",
  "version": "{version}",
  "private": true,
  "description": "Vitrine's core rules for the React Native app, through uniffi-bindgen-react-native (generated by `cargo xtask bindings`).",
  "license": "{license}",
  "author": "Vitrine contributors",
  "repository": {{ "type": "git", "url": "" }},
  "react-native": "src/index.tsx",
  "source": "src/index.tsx",
  "files": ["src", "ts", "cpp", "android", "ios", "*.podspec", "ubrn.config.yaml", "!android/build", "!ios/build"],
  "codegenConfig": {{
    "name": "VitrineBindingsSpec",
    "type": "modules",
    "jsSrcsDir": "src",
    "android": {{ "javaPackageName": "{ANDROID_PACKAGE}" }}
  }},
  "dependencies": {{
    "@ubjs/core": "npm:uniffi-bindgen-react-native@{UBRN_VERSION}",
    "uniffi-bindgen-react-native": "{UBRN_VERSION}"
  }},
  "peerDependencies": {{ "react-native": "{REACT_NATIVE_VERSION}" }}
}}
"#
    )
}

/// uniffi-bindgen-react-native's configuration, with the crate found from `rust_directory`
/// (the workspace root, relative to the package or absolute). Every target and path is spelled
/// out so that nothing depends on the machine that generates. Android links the crate's own
/// cdylib (`useSharedLibrary`), so the crate needs no `staticlib` type that every other build
/// would pay for; iOS wants a static library, which `cargo rustc --crate-type staticlib` makes
/// (bindings/README.md).
fn ubrn_config(rust_directory: &str) -> String {
    format!(
        "# Written by `cargo xtask bindings`; see bindings/README.md.\n\
         rust:\n  directory: {rust_directory}\n  manifestPath: bindings/Cargo.toml\n\
         bindings:\n  ts: ts\n  cpp: cpp\n\
         turboModule:\n  ts: src\n  cpp: cpp\n  entrypoint: src/index.tsx\n\
         android:\n  directory: android\n  jniLibs: src/main/jniLibs\n  apiLevel: 24\n  \
         useSharedLibrary: true\n  targets:\n    - arm64-v8a\n    - armeabi-v7a\n    - x86_64\n    - x86\n\
         ios:\n  directory: ios\n  frameworkName: build/VitrineBindingsFramework\n  targets:\n    \
         - aarch64-apple-ios\n    - aarch64-apple-ios-sim\n    - x86_64-apple-ios\n"
    )
}

/// uniffi-bindgen-react-native's entry in `bindings/package-lock.json`: its version and the
/// digest of its package.
fn locked_generator() -> Result<String> {
    let lock = workspace::root().join("bindings/package-lock.json");
    let text = fs::read_to_string(&lock).with_context(|| format!("reading {}", lock.display()))?;
    let lock: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("reading {} as JSON", lock.display()))?;
    let entry = &lock["packages"]["node_modules/uniffi-bindgen-react-native"];
    if entry.is_null() {
        anyhow::bail!("bindings/package-lock.json does not lock uniffi-bindgen-react-native");
    }
    Ok(entry.to_string())
}

fn write(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fingerprint_follows_the_exports_and_only_them() {
        let out =
            std::env::temp_dir().join(format!("vitrine-bindings-print-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let file = out.join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        };
        write(
            "kotlin/app/vitrine_bindings.kt",
            "fun cartDisplayCap(): UInt",
        );
        write(
            "swift/VitrineBindings.swift",
            "func cartDisplayCap() -> UInt32",
        );
        let before = fingerprint(&out).unwrap();
        // What the React Native package itself holds does not count: it is what is checked.
        write(
            "react-native/ts/vitrine_bindings.ts",
            "export function old() {}",
        );
        let unchanged = fingerprint(&out).unwrap();
        write(
            "kotlin/app/vitrine_bindings.kt",
            "fun cartDisplayCap(): ULong",
        );
        let changed = fingerprint(&out).unwrap();
        fs::remove_dir_all(&out).unwrap();

        assert_eq!(before, unchanged);
        assert_ne!(before, changed);
        assert_eq!(before.trim_end().len(), 64);
    }
}
