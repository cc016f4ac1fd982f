//! Escaping text for HTML, so a plugin's output shows block data as text, never as markup.
//! (Tested through the tour dates example in the host's tests, since guest crates build for
//! WebAssembly only.)

/// Escapes `&`, `<`, `>`, `"` and `'` so the text is safe in element content and in quoted
/// attribute values.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}
