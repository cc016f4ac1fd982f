//! When a banner text counts as empty (000 s5: "an empty paragraph counts as empty").

/// True when `html` shows nothing: only whitespace, non-breaking spaces, empty paragraphs and
/// line breaks. The editor saves a cleared rich-text field as `<p></p>` or `<p><br></p>`, so
/// those must fall back to the default text just like a missing field.
pub fn is_blank_html(html: &str) -> bool {
    let mut rest = html;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{a0}');
        if rest.is_empty() {
            return true;
        }
        let skipped = ["&nbsp;", "<p>", "</p>", "<br>", "<br/>", "<br />"]
            .iter()
            .find_map(|token| {
                let head = rest.get(..token.len())?;
                head.eq_ignore_ascii_case(token)
                    .then(|| &rest[token.len()..])
            });
        match skipped {
            Some(after) => rest = after,
            None => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_blank_html;

    #[test]
    fn empty_paragraphs_are_blank() {
        for blank in [
            "",
            "  ",
            "<p></p>",
            "<P> </P>",
            "<p><br></p>",
            "&nbsp;",
            "<p>&nbsp;</p>\n",
        ] {
            assert!(is_blank_html(blank), "{blank:?}");
        }
        for text in ["x", "<p>Hi</p>", "<b></b>", "<p>a<br></p>"] {
            assert!(!is_blank_html(text), "{text:?}");
        }
    }
}
