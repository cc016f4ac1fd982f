//! Chooses the web build the binary embeds: `web/dist` when Vite has built it, otherwise an
//! empty directory, so `cargo build` works before the front end has ever been built.

use std::env;
use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest_dir.join("../../web");
    let dist = web.join("dist");
    // The demo site is embedded too; include_dir does not tell cargo about its files.
    println!("cargo:rerun-if-changed=../demo-site");

    let embedded = if dist.join(".vite/manifest.json").is_file() {
        // Cargo scans a watched directory recursively, so any rebuilt asset re-embeds the build.
        println!("cargo:rerun-if-changed={}", dist.display());
        dist.canonicalize().unwrap_or(dist)
    } else {
        // Watching a path that does not exist would rebuild this crate on every build; the web
        // folder exists and changes when `dist` appears in it.
        println!("cargo:rerun-if-changed={}", web.display());
        println!(
            "cargo:warning=web assets not built; run `cargo xtask run` or `npm --prefix web run build`"
        );
        let empty =
            PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("no-web-build");
        std::fs::create_dir_all(&empty).expect("OUT_DIR is writable");
        empty
    };
    println!("cargo:rustc-env=VITRINE_WEB_DIST={}", embedded.display());
    bundled_plugins(&manifest_dir);
}

/// The example block plugins the binary installs into an empty plugins directory: copied from
/// `cargo xtask plugins`' output when it exists (the hostile test programs beside them are
/// never bundled), otherwise none, so `cargo build` works before the plugins are built.
fn bundled_plugins(manifest_dir: &std::path::Path) {
    const EXAMPLES: [&str; 3] = ["chart", "tour-dates", "event-summary"];
    let built = manifest_dir.join("../../plugins/guests/target/plugins");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("set by cargo")).join("bundled-plugins");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("OUT_DIR is writable");
    for example in EXAMPLES {
        let source = built.join(example);
        if !source.join("plugin.toml").is_file() {
            println!("cargo:warning=example plugins not built; run `cargo xtask plugins`");
            continue;
        }
        println!("cargo:rerun-if-changed={}", source.display());
        let target = out.join(example);
        std::fs::create_dir_all(&target).expect("OUT_DIR is writable");
        for file in ["plugin.toml".to_owned(), format!("{example}.wasm")] {
            std::fs::copy(source.join(&file), target.join(&file))
                .expect("the built plugin is readable");
        }
    }
    println!(
        "cargo:rerun-if-changed={}",
        manifest_dir.join("../../plugins/examples").display()
    );
    println!("cargo:rustc-env=VITRINE_BUNDLED_PLUGINS={}", out.display());
}
