//! `vitrine plugin new NAME`: a block plugin project from the template in `plugin_template/`,
//! ready for `vitrine plugin build`.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

const CARGO_TOML: &str = include_str!("plugin_template/Cargo.toml.in");
const PLUGIN_TOML: &str = include_str!("plugin_template/plugin.toml.in");
const LIB_RS: &str = include_str!("plugin_template/lib.rs.in");
const SAMPLE_JSON: &str = include_str!("plugin_template/sample.json.in");
const CARGO_CONFIG: &str = include_str!("plugin_template/cargo-config.toml.in");

/// The SDK of the source tree this program was built from; found when the program runs from
/// that tree (a development build, or the repository's own tests).
fn repository_sdk() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/sdk")
}

/// Creates the project `NAME` in `parent`; returns its directory.
///
/// The SDK is a path dependency on `sdk` when given, otherwise on the SDK of the source tree
/// this program was built from. When that SDK's workspace has a Cargo.lock, it is copied in,
/// so the new project builds with the dependency versions the examples are tested with, and
/// without reaching a registry when those are already downloaded.
pub fn create(name: &str, parent: &Path, sdk: Option<&Path>) -> anyhow::Result<PathBuf> {
    check_name(name)?;
    let sdk = match sdk {
        Some(sdk) => sdk.to_owned(),
        None => repository_sdk(),
    };
    if !sdk.join("Cargo.toml").is_file() {
        bail!(
            "the plugin SDK is not at {}: pass the folder of vitrine-plugin-sdk (plugins/sdk in \
             Vitrine's source) with --sdk",
            sdk.display()
        );
    }
    let sdk = sdk
        .canonicalize()
        .with_context(|| format!("could not read {}", sdk.display()))?;
    let dir = parent.join(name);
    if dir.exists() {
        bail!(
            "{} already exists; choose another name or folder",
            dir.display()
        );
    }
    let sdk_line = format!(
        "vitrine-plugin-sdk = {{ path = {} }}",
        toml_string(&sdk.to_string_lossy())
    );
    let fill = |template: &str| template.replace("{name}", name).replace("{sdk}", &sdk_line);
    for folder in ["src", ".cargo"] {
        std::fs::create_dir_all(dir.join(folder))
            .with_context(|| format!("could not create {}", dir.display()))?;
    }
    for (file, template) in [
        ("Cargo.toml", CARGO_TOML),
        ("plugin.toml", PLUGIN_TOML),
        ("src/lib.rs", LIB_RS),
        ("sample.json", SAMPLE_JSON),
        (".cargo/config.toml", CARGO_CONFIG),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, fill(template))
            .with_context(|| format!("could not write {}", path.display()))?;
    }
    let lock = sdk.join("../guests/Cargo.lock");
    if lock.is_file() {
        std::fs::copy(&lock, dir.join("Cargo.lock")).context("could not copy Cargo.lock")?;
    }
    Ok(dir)
}

/// A name that is a valid package suffix, block type name, CSS class and file name.
fn check_name(name: &str) -> anyhow::Result<()> {
    let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !name.ends_with('-')
        && name.len() <= 40;
    if !valid {
        bail!(
            "`{name}` is not a plugin name: use lowercase letters, digits and hyphens, starting \
             with a letter, such as opening-hours"
        );
    }
    Ok(())
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_words_joined_by_hyphens() {
        assert!(check_name("opening-hours").is_ok());
        assert!(check_name("chart2").is_ok());
        for bad in [
            "",
            "Opening",
            "2chart",
            "opening_hours",
            "a-",
            "../x",
            "a b",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?} is refused");
        }
    }

    #[test]
    fn a_project_has_its_manifest_source_and_sdk_dependency() {
        let parent = tempfile::tempdir().unwrap();
        let dir = create("opening-hours", parent.path(), None).unwrap();
        let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(
            cargo.contains("name = \"vitrine-plugin-opening-hours\""),
            "{cargo}"
        );
        assert!(cargo.contains("vitrine-plugin-sdk = { path = "), "{cargo}");
        let manifest = std::fs::read_to_string(dir.join("plugin.toml")).unwrap();
        let manifest = vitrine_plugins::Manifest::parse(&manifest).unwrap();
        assert_eq!(manifest.component, "opening-hours.wasm");
        assert_eq!(manifest.blocks[0].name, "opening-hours");
        assert!(dir.join("src/lib.rs").is_file());
        assert!(
            create("opening-hours", parent.path(), None).is_err(),
            "an existing folder is never overwritten"
        );
    }
}
