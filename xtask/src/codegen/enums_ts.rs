//! `enums.ts`: every coded enumeration of the core as a `const` object, a union type of its
//! codes, and a lookup from code to variant name.

use std::fmt::Write;

use vitrine_core::enums::{EnumDescriptor, WireCode, catalog};

use super::{TS_HEADER, ts_string};

pub fn render() -> String {
    let mut out = String::from(TS_HEADER);
    out.push_str("// The specification's enumerations and their codes, mirrored from `vitrine_core::enums`.\n");
    for descriptor in catalog() {
        out.push('\n');
        render_enum(&mut out, &descriptor);
    }
    out
}

fn render_enum(out: &mut String, descriptor: &EnumDescriptor) {
    let name = descriptor.name;
    // Writing to a String cannot fail, so the results of `writeln!` are ignored below.
    let _ = writeln!(out, "/** {name} codes. */");
    let _ = writeln!(out, "export const {name} = {{");
    for variant in &descriptor.variants {
        let _ = writeln!(out, "  {}: {},", variant.name, code_literal(variant.code));
    }
    out.push_str("} as const;\n");
    let _ = writeln!(
        out,
        "export type {name} = (typeof {name})[keyof typeof {name}];"
    );
    let _ = writeln!(out, "/** The variant name of each {name} code. */");
    let _ = writeln!(
        out,
        "export const {name}Name: Readonly<Record<{name}, keyof typeof {name}>> = {{"
    );
    for variant in &descriptor.variants {
        let key = match variant.code {
            WireCode::Number(code) => code.to_string(),
            WireCode::Text(code) => ts_string(code),
        };
        let _ = writeln!(out, "  {key}: {},", ts_string(variant.name));
    }
    out.push_str("};\n");
}

fn code_literal(code: WireCode) -> String {
    match code {
        WireCode::Number(code) => code.to_string(),
        WireCode::Text(code) => ts_string(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_numeric_and_text_codes() {
        let rendered = render();
        assert!(rendered.contains("export const BlockType = {\n  Navigation: 1,\n"));
        assert!(
            rendered.contains("export type PageType = (typeof PageType)[keyof typeof PageType];")
        );
        assert!(rendered.contains("  301: 'CommerceEmailPreview',\n"));
        assert!(rendered.contains("  V7_1: '7.1',\n"));
        assert!(rendered.contains("  '7.1': 'V7_1',\n"));
    }
}
