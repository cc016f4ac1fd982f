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
}
