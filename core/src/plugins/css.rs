//! CSS from plugins: a small, safe subset, scoped to the plugin's block.
//!
//! A plugin's stylesheet may hold only plain style rules (`selectors { property: value; }`):
//! no at-rules (`@import`, `@font-face`, `@media`), no escapes, no `url()` or other function
//! that fetches or runs anything, and only simple selectors. Every selector is prefixed with
//! the block's id, so a plugin styles its own block and nothing else on the page. CSS outside
//! the subset is refused whole, so a plugin's author sees the problem rather than half a style.

use sha2::{Digest, Sha256};

/// The most CSS one rendering may carry.
pub const MAX_CSS_BYTES: usize = 16 * 1024;

/// Functions a value may call: colours and arithmetic, none of which fetch anything.
const FUNCTIONS: &[&str] = &[
    "rgb", "rgba", "hsl", "hsla", "calc", "min", "max", "clamp", "var",
];

/// A plugin's CSS after scoping, with a name derived from its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginCss {
    css: String,
}

/// Why a plugin's CSS was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("css refused: {0}")]
pub struct CssRefused(pub String);

impl PluginCss {
    /// Scopes `raw` to the element `#block-{block_id}`, or refuses it.
    pub fn scope(raw: &str, block_id: &str) -> Result<Self, CssRefused> {
        let refuse = |why: &str| Err(CssRefused(why.to_owned()));
        if raw.len() > MAX_CSS_BYTES {
            return refuse("more than 16 KiB");
        }
        if !block_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return refuse("the block id cannot be a selector");
        }
        let raw = strip_comments(raw)?;
        let mut css = String::new();
        let mut rest = raw.as_str();
        while let Some(open) = rest.find('{') {
            let selectors = &rest[..open];
            let Some(close) = rest[open..].find('}') else {
                return refuse("a rule is not closed");
            };
            let declarations = &rest[open + 1..open + close];
            rest = &rest[open + close + 1..];
            let mut scoped = Vec::new();
            for selector in selectors.split(',') {
                let selector = selector.split_whitespace().collect::<Vec<_>>().join(" ");
                if selector.is_empty() || !selector.chars().all(selector_char) {
                    return refuse("a selector holds characters outside the allowed set");
                }
                scoped.push(format!("#block-{block_id} {selector}"));
            }
            let mut body = String::new();
            for declaration in declarations.split(';') {
                let declaration = declaration.trim();
                if declaration.is_empty() {
                    continue;
                }
                let Some((property, value)) = declaration.split_once(':') else {
                    return refuse("a declaration has no value");
                };
                let property = property.trim();
                let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
                if property.is_empty()
                    || !property.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                    || property.contains("behavior")
                    || property.contains("binding")
                {
                    return refuse("a property name outside the allowed set");
                }
                check_value(&value)?;
                body.push_str(&format!("{property}:{value};"));
            }
            css.push_str(&format!("{}{{{body}}}\n", scoped.join(",")));
        }
        if !rest.trim().is_empty() {
            return refuse("text outside a rule");
        }
        Ok(Self { css })
    }

    pub fn as_str(&self) -> &str {
        &self.css
    }

    /// A file name for the stylesheet: the hash of its content, so it can be cached forever.
    pub fn file_name(&self) -> String {
        let digest = Sha256::digest(self.css.as_bytes());
        format!("{}.css", hex::encode(&digest[..16]))
    }
}

fn selector_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || " .#:>_+~-*()[]=\"'".contains(c)
}

fn check_value(value: &str) -> Result<(), CssRefused> {
    let refuse = |why: &str| Err(CssRefused(why.to_owned()));
    if value.is_empty()
        || !value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " #%.,()-+/*!_".contains(c))
    {
        return refuse("a value holds characters outside the allowed set");
    }
    // Every opening parenthesis must follow an allowed function name (or another
    // parenthesis, for grouping inside calc()).
    let bytes = value.as_bytes();
    for (index, _) in value.match_indices('(') {
        let start = value[..index]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .map_or(0, |at| at + 1);
        let name = value[start..index].to_ascii_lowercase();
        let grouping = name.is_empty() && index > 0 && b" (*/+-".contains(&bytes[index - 1]);
        if !(FUNCTIONS.contains(&name.as_str()) || grouping) {
            return refuse("a value calls a function outside the allowed set");
        }
    }
    Ok(())
}

fn strip_comments(raw: &str) -> Result<String, CssRefused> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start + 2..].find("*/") else {
            return Err(CssRefused("a comment is not closed".to_owned()));
        };
        out.push(' ');
        rest = &rest[start + 2 + end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_scoped_to_the_block() {
        let css = PluginCss::scope(
            "/* bars */ .bar, svg > rect:hover { fill: #8a3f22; stroke-width: calc(1px + 2%) }\n.x{color:rgb(1, 2, 3)}",
            "b7",
        )
        .unwrap();
        assert_eq!(
            css.as_str(),
            "#block-b7 .bar,#block-b7 svg > rect:hover{fill:#8a3f22;stroke-width:calc(1px + 2%);}\n#block-b7 .x{color:rgb(1, 2, 3);}\n"
        );
        assert!(css.file_name().ends_with(".css"));
        assert_eq!(css.file_name().len(), 36);
    }

    #[test]
    fn anything_that_fetches_escapes_or_leaves_the_block_is_refused() {
        for hostile in [
            "@import 'https://evil.example/x.css';",
            ".a { background: url(https://evil.example/t.png) }",
            ".a { background: image-set('x.png' 1x) }",
            ".a { width: expression(alert(1)) }",
            ".a { color: \\72 ed }",
            ".a { -moz-binding: none }",
            "</style><script>x()</script>",
            ".a { color: red",
            "@media print { .a { color: red } }",
            ".a { color: red } } body { display: none }",
            ".a { content: \"x\" }",
            "/* open",
        ] {
            assert!(
                PluginCss::scope(hostile, "b7").is_err(),
                "{hostile} was accepted"
            );
        }
        assert!(PluginCss::scope(".a{}", "b7\"><x").is_err());
    }
}
