//! `mobile-shell/contract/limits.ts`: the bridge envelope's version, limits, message names and
//! the spec's error texts (001 s7, s8), from `vitrine_core::bridge`, for the one TypeScript
//! module of envelope rules (`contract/rules.ts`) that the app and the web client share.

use std::fmt::Write;

use vitrine_core::bridge::{
    BridgeName, MAX_ID_CHARS, MAX_MESSAGE_BYTES, PLATFORM_NOT_IDENTIFIED, PROTOCOL_VERSION,
    name_not_found,
};

use super::{TS_HEADER, ts_string};

/// Where the file goes, relative to the workspace root.
pub const PATH: &str = "mobile-shell/contract/limits.ts";

pub fn render() -> String {
    // The spec's text around a message name, split where the core puts the name.
    const MARK: &str = "\u{1}";
    let text = name_not_found(MARK);
    let (before, after) = text.split_once(MARK).unwrap_or((&text, ""));
    let names: Vec<String> = BridgeName::ALL
        .iter()
        .map(|name| ts_string(name.wire()))
        .collect();

    let mut out = String::from(TS_HEADER);
    out.push_str("// The bridge envelope's limits, names and texts (001 s7, s8), from `vitrine_core::bridge`.\n\n");
    // Writing to a String cannot fail.
    let _ = writeln!(out, "/** The envelope version both sides speak. */");
    let _ = writeln!(out, "export const PROTOCOL_VERSION = {PROTOCOL_VERSION};");
    let _ = writeln!(
        out,
        "/** The largest message, in bytes of UTF-8, either side reads or sends. */"
    );
    let _ = writeln!(out, "export const MAX_MESSAGE_BYTES = {MAX_MESSAGE_BYTES};");
    let _ = writeln!(out, "/** The longest request id. */");
    let _ = writeln!(out, "export const MAX_ID_CHARS = {MAX_ID_CHARS};");
    let _ = writeln!(
        out,
        "/** The allow-list of message names the app answers (001 s7). */"
    );
    let _ = writeln!(
        out,
        "export const BRIDGE_NAMES = [{}] as const;",
        names.join(", ")
    );
    let _ = writeln!(
        out,
        "/** 001 s8, verbatim: the bridge cannot tell which mobile platform it runs on. */"
    );
    let _ = writeln!(
        out,
        "export const PLATFORM_NOT_IDENTIFIED = {};",
        ts_string(PLATFORM_NOT_IDENTIFIED)
    );
    let _ = writeln!(
        out,
        "/** 001 s8, verbatim: the text before and after a message name the app does not handle. */"
    );
    let _ = writeln!(
        out,
        "export const NAME_NOT_FOUND_BEFORE = {};",
        ts_string(before)
    );
    let _ = writeln!(
        out,
        "export const NAME_NOT_FOUND_AFTER = {};",
        ts_string(after)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_names_and_texts_are_the_cores() {
        let limits = render();
        assert!(limits.contains("export const MAX_MESSAGE_BYTES = 16384;\n"));
        assert!(limits.contains("export const BRIDGE_NAMES = ['info', 'dismiss'] as const;\n"));
        assert!(
            limits.contains("export const NAME_NOT_FOUND_BEFORE = '[JS -> Native Bridge] ';\n")
        );
        assert!(limits.contains("export const NAME_NOT_FOUND_AFTER = ' not found';\n"));
        assert!(limits.contains(
            "export const PLATFORM_NOT_IDENTIFIED = 'mobile platform not correctly identified';\n"
        ));
    }
}
