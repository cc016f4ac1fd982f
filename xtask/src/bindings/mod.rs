//! `cargo xtask bindings`: the uniffi bindings of `bindings/` for the native app.
//!
//! Without options it builds the library and rewrites `bindings/generated/` (Kotlin, Swift and
//! the React Native TypeScript and C++); `--check` fails when those checked-in files are stale
//! and type-checks the TypeScript; `--test` runs the Python and Kotlin tests against the
//! compiled library; `--bench` times binding calls from Python against the same calls in Rust.

mod generate;
mod kotlin;
mod python;
mod react_native;

use std::fs;
use std::path::PathBuf;

use anyhow::{Result, bail};

use generate::Profile;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing: fail naming every generated file that is missing, extra or different,
    /// then type-check the generated React Native TypeScript.
    #[arg(long, conflicts_with_all = ["test", "bench"])]
    check: bool,
    /// With `--check`, regenerate the React Native sources too (uniffi-bindgen-react-native
    /// compiles its own command with cargo on first use, minutes on a cold machine); without
    /// it the checked-in React Native TypeScript is type-checked only.
    #[arg(long, requires = "check")]
    react_native: bool,
    /// Run the Python tests, then the Kotlin tests on the JVM; both load the real compiled
    /// library.
    #[arg(long, conflicts_with = "bench")]
    test: bool,
    /// Time binding calls from Python against the same calls in Rust, on a release build.
    #[arg(long)]
    bench: bool,
}

pub fn run(args: &Args) -> Result<()> {
    if args.test {
        python::test()?;
        return kotlin::test();
    }
    if args.bench {
        return python::bench();
    }
    if args.check {
        return check(args.react_native);
    }
    let fresh = generate_fresh(true)?;
    generate::replace(
        &fresh,
        &crate::workspace::root().join(generate::GENERATED_DIR),
    )
}

/// Fails when the checked-in generated sources differ from what the library produces, then
/// type-checks the React Native TypeScript. Kotlin and Swift are compared file by file; the
/// React Native package is too when `react_native`, and otherwise by its fingerprint of what it
/// was made from: `cargo xtask test` checks that way, since uniffi-bindgen-react-native's first
/// run compiles a command of its own, minutes that every CI run would pay for sources that only
/// change when the exports, the configuration or the tools do.
pub fn check(react_native: bool) -> Result<()> {
    let fresh = generate_fresh(react_native)?;
    let checked_in = crate::workspace::root().join(generate::GENERATED_DIR);
    let mut stale = generate::differences(&fresh, &checked_in)?;
    stale.retain(|path| !react_native::is_build_output(path));
    if !react_native {
        stale.retain(|path| !path.starts_with("react-native/"));
        let fingerprint = format!("react-native/{}", react_native::FINGERPRINT_FILE);
        let recorded = fs::read_to_string(checked_in.join(&fingerprint)).unwrap_or_default();
        if recorded != react_native::fingerprint(&fresh)? {
            stale.push(fingerprint);
        }
    }
    if !stale.is_empty() {
        bail!(
            "stale generated bindings (run `cargo xtask bindings`): {}",
            stale.join(", ")
        );
    }
    eprintln!("==> generated bindings are up to date");
    react_native::typecheck()
}

/// Runs the Python tests against the compiled library.
pub fn test_python() -> Result<()> {
    python::test()
}

/// Compiles the Kotlin tests with the library's Kotlin and runs them on the JVM against the
/// compiled library, installing the compiler (npm) and a JDK and JNA (apt-get) when missing.
pub fn test_kotlin() -> Result<()> {
    kotlin::test()
}

/// Builds the library and generates its sources into the target directory: Kotlin and Swift,
/// and React Native when `react_native`.
fn generate_fresh(react_native: bool) -> Result<PathBuf> {
    let library = generate::build_library(Profile::Debug)?;
    let fresh = crate::workspace::target_dir().join("bindings/generated");
    generate::generate_all(&library, &fresh, react_native)?;
    Ok(fresh)
}
