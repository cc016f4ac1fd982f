//! `widget-vectors.json` and `widget-constants.ts`: the display widgets' rules (text effect,
//! marquee, tooltip, popups, throttle, relative time, file size) as vectors the web tests
//! replay, and the constants the islands use.

use std::fmt::Write;

use vitrine_core::widgets::vectors::{widget_constants, widget_vectors};

use super::TS_HEADER;

pub fn render_vectors() -> String {
    // Keys come out sorted (serde_json's map is ordered), so the file is stable.
    serde_json::to_string_pretty(&widget_vectors()).unwrap_or_default() + "\n"
}

pub fn render_constants() -> String {
    let mut out = String::from(TS_HEADER);
    out.push_str(
        "// The display widgets' constants (001 s3, s8, s9), from `vitrine_core::widgets`.\n\n",
    );
    for (name, value) in widget_constants() {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "export const {name} = {value};");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_exported() {
        let constants = render_constants();
        assert!(constants.contains("export const TOOLTIP_SHOW_DELAY_MS = 1200;\n"));
        assert!(constants.contains(
            "export const MARQUEE_NO_WINDOW = \"Cannot init animations without a window context\";\n"
        ));
        let vectors: serde_json::Value = serde_json::from_str(&render_vectors()).unwrap();
        assert!(vectors["textEffectDuration"].as_array().unwrap().len() > 10);
    }
}
