//! The layering of this crate, checked on its sources: a capability folder (`pages/`,
//! `forms/`, `commerce/`, `privacy/`, `plugins/`, and any folder added beside them) never
//! imports another capability folder, and the layers below them (`shared/`, `render/`) import
//! no capability at all. What two capabilities both need moves down into `shared/` (or into
//! the core); the router and the state on top wire the capabilities together.
//!
//! An import is a `crate::` path whose first segment is a capability folder, or an item the
//! crate root re-exports from one (`crate::CensusLog` when it lived in `privacy/`).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The folders below the capabilities.
const BELOW: &[&str] = &["shared", "render"];
/// The folders of the wiring on top (beside `router.rs` and `state.rs`), which may import any
/// capability.
const WIRING: &[&str] = &["assets", "openapi"];

#[test]
fn no_capability_folder_imports_another_and_the_layers_below_import_none() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders: Vec<String> = fs::read_dir(&src)
        .expect("the crate's sources are readable")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    folders.sort();
    let capabilities: Vec<&str> = folders
        .iter()
        .map(String::as_str)
        .filter(|folder| !BELOW.contains(folder) && !WIRING.contains(folder))
        .collect();
    assert!(
        capabilities.contains(&"commerce") && capabilities.contains(&"pages"),
        "the capability folders were not found in {src:?}: {capabilities:?}"
    );
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs is readable");
    let reexports = root_reexports(&lib, &capabilities);

    let mut files = Vec::new();
    for folder in capabilities.iter().chain(BELOW) {
        collect_rust_files(&src.join(folder), &mut files);
    }
    let sources: Vec<Source> = files
        .iter()
        .map(|path| Source {
            folder: path
                .strip_prefix(&src)
                .ok()
                .and_then(|relative| relative.iter().next())
                .and_then(|first| first.to_str())
                .unwrap_or_default()
                .to_owned(),
            name: path
                .strip_prefix(&src)
                .unwrap_or(path)
                .display()
                .to_string(),
            text: rooted(
                &fs::read_to_string(path).expect("a source file is readable"),
                module_depth(path.strip_prefix(&src).unwrap_or(path)),
            ),
        })
        .collect();

    let found = offenders(&capabilities, &reexports, &sources);
    assert!(
        found.is_empty(),
        "capability folders may import only `shared/`, `render/` and the crate root's wiring; \
         move what two capabilities share down into `shared/`. Offending imports:\n{}",
        found.join("\n")
    );
}

/// One source file: the top folder it is in, its path for the report, and its text.
struct Source {
    folder: String,
    name: String,
    text: String,
}

/// Every import of a capability from a file of another capability or of a layer below.
fn offenders(
    capabilities: &[&str],
    reexports: &BTreeMap<String, String>,
    sources: &[Source],
) -> Vec<String> {
    let mut found = Vec::new();
    for source in sources {
        for name in crate_paths(&without_comments(&source.text)) {
            let target = if capabilities.contains(&name.as_str()) {
                Some(name.clone())
            } else {
                reexports.get(&name).cloned()
            };
            if let Some(target) = target
                && target != source.folder
            {
                found.push(format!(
                    "{}: `crate::{name}` is in `{target}/`",
                    source.name
                ));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The items `lib.rs` re-exports from a capability folder, by name, with the folder.
fn root_reexports(lib: &str, capabilities: &[&str]) -> BTreeMap<String, String> {
    let mut reexports = BTreeMap::new();
    for statement in without_comments(lib).split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let folder = path.split("::").next().unwrap_or_default().trim();
        if !capabilities.contains(&folder) {
            continue;
        }
        let items = match path.find('{') {
            Some(open) => path[open + 1..].trim_end_matches('}').to_owned(),
            None => path.rsplit("::").next().unwrap_or_default().to_owned(),
        };
        for item in items.split(',') {
            let name = item.split(" as ").last().unwrap_or_default().trim();
            let name = name.rsplit("::").next().unwrap_or_default();
            if !name.is_empty() {
                reexports.insert(name.to_owned(), folder.to_owned());
            }
        }
    }
    reexports
}

/// The first segment after each `crate::` in `text`, for `crate::{a, b::c}` each of `a`, `b`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 || (depth == 1 && c == ',') {
                    names.push(first_identifier(&item));
                    item.clear();
                    if depth == 0 {
                        break;
                    }
                } else if depth == 1 {
                    item.push(c);
                }
            }
        } else {
            names.push(first_identifier(rest));
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

fn first_identifier(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// How many modules below the crate root the file at `relative` (to `src/`) is:
/// `commerce/mod.rs` is 1, `commerce/cart.rs` 2.
fn module_depth(relative: &Path) -> usize {
    let components = relative.components().count();
    if relative.file_name().is_some_and(|name| name == "mod.rs") {
        components - 1
    } else {
        components
    }
}

/// `text` with each chain of exactly `depth` `super::` (one that reaches the crate root from a
/// module `depth` deep) written as `crate::`. Inline modules (`mod tests { .. }`) climb one
/// more and are not followed.
fn rooted(text: &str, depth: usize) -> String {
    if depth == 0 {
        return text.to_owned();
    }
    let chain = "super::".repeat(depth);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&chain) {
        let before = rest[..at].chars().next_back();
        let after = &rest[at + chain.len()..];
        let joined = before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        out.push_str(&rest[..at]);
        if joined || after.starts_with("super") {
            out.push_str(&chain);
        } else {
            out.push_str("crate::");
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The text without `//` comments (doc comments included), so prose naming a path is no import.
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn collect_rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            collect_rust_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn paths_are_read_from_plain_and_grouped_uses_but_not_from_comments() {
    let text = "use crate::commerce::cart::now;\n\
                use crate::{ApiError, pages::{cache, seo}, shared};\n\
                // crate::privacy is only named here\n\
                let _ = crate::forms::calls::now_secs(); // and crate::plugins here\n\
                let _ = subcrate::pages;";
    assert_eq!(
        crate_paths(&without_comments(text)),
        ["commerce", "ApiError", "pages", "shared", "forms"]
    );
}

#[test]
fn a_super_chain_that_reaches_the_crate_root_is_a_crate_path() {
    assert_eq!(module_depth(Path::new("commerce/mod.rs")), 1);
    assert_eq!(module_depth(Path::new("commerce/cart.rs")), 2);
    let text = "use super::super::pages::cache;\nuse super::cart;\nuse super::super::super::x;";
    assert_eq!(crate_paths(&rooted(text, 2)), ["pages"]);
    assert_eq!(
        crate_paths(&rooted("use super::{forms, cart};", 1)),
        ["forms", "cart"]
    );
    assert_eq!(
        crate_paths(&rooted("use super::cart;", 2)),
        Vec::<String>::new()
    );
}

#[test]
fn an_import_of_another_capability_or_of_its_root_reexport_is_reported() {
    let capabilities = ["commerce", "privacy"];
    let reexports = root_reexports(
        "pub use privacy::census::{REPORT_PATH as PATH, visitor_key};\npub use shared::clock;",
        &capabilities,
    );
    let source = |folder: &str, text: &str| Source {
        folder: folder.to_owned(),
        name: format!("{folder}/file.rs"),
        text: text.to_owned(),
    };
    let sources = [
        source(
            "commerce",
            "use crate::commerce::cart;\nuse crate::shared::clock;",
        ),
        source("commerce", "use crate::privacy::consent;"),
        source("commerce", "use crate::{AppState, PATH};"),
        source("shared", "use crate::commerce::cart::now;"),
        source("privacy", "use crate::visitor_key;"),
    ];
    assert_eq!(
        offenders(&capabilities, &reexports, &sources),
        [
            "commerce/file.rs: `crate::PATH` is in `privacy/`",
            "commerce/file.rs: `crate::privacy` is in `privacy/`",
            "shared/file.rs: `crate::commerce` is in `commerce/`",
        ]
    );
}
