//! The HTML part of a mail. Every mail Vitrine sends has a plain-text part and an HTML part:
//! a mail composed with its own HTML ([`MailHtml`]) sends that, and any other sends its text
//! as HTML ([`text_as_html`]), escaped, with its paragraphs and line breaks kept and its
//! links clickable, so that the two parts always say the same thing.

/// Escapes `text` for an HTML text node or a double-quoted attribute.
pub fn escape_html(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// One line of text, escaped, with each `http://` or `https://` word made a link.
fn line_as_html(line: &str) -> String {
    let mut html = String::with_capacity(line.len());
    let mut first = true;
    for word in line.split(' ') {
        if !first {
            html.push(' ');
        }
        first = false;
        if word.starts_with("https://") || word.starts_with("http://") {
            let escaped = escape_html(word);
            html.push_str(&format!("<a href=\"{escaped}\">{escaped}</a>"));
        } else {
            html.push_str(&escape_html(word));
        }
    }
    html
}

/// The document every HTML part is wrapped in: a title for clients that show one, and a
/// narrow column that reads well on a phone.
fn document(subject: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body style=\"font-family:sans-serif;line-height:1.5;max-width:40em\">\n{body}</body></html>\n",
        escape_html(subject)
    )
}

/// The plain text of a mail as its HTML part: paragraphs (split at blank lines) with their
/// line breaks, every character escaped, links clickable.
pub fn text_as_html(subject: &str, text: &str) -> String {
    let mut body = String::new();
    for paragraph in text.split("\n\n") {
        let lines: Vec<String> = paragraph
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(line_as_html)
            .collect();
        if lines.is_empty() {
            continue;
        }
        body.push_str(&format!("<p>{}</p>\n", lines.join("<br>\n")));
    }
    document(subject, &body)
}

/// A mail's HTML part composed piece by piece, every piece escaped: headings, paragraphs,
/// a table of labelled amounts and links. Built beside the plain text from the same values.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MailHtml {
    body: String,
}

impl MailHtml {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn heading(mut self, text: &str) -> Self {
        self.body.push_str(&format!(
            "<h1 style=\"font-size:1.4em\">{}</h1>\n",
            escape_html(text)
        ));
        self
    }

    pub fn paragraph(mut self, text: &str) -> Self {
        self.body
            .push_str(&format!("<p>{}</p>\n", line_as_html(text)));
        self
    }

    /// A bulleted list.
    pub fn list(mut self, items: impl IntoIterator<Item = String>) -> Self {
        self.body.push_str("<ul>\n");
        for item in items {
            self.body
                .push_str(&format!("<li>{}</li>\n", escape_html(&item)));
        }
        self.body.push_str("</ul>\n");
        self
    }

    /// Rows of a label and its value, as a receipt shows amounts.
    pub fn table<'a>(mut self, rows: impl IntoIterator<Item = (&'a str, String)>) -> Self {
        self.body.push_str("<table>\n");
        for (label, value) in rows {
            self.body.push_str(&format!(
                "<tr><th style=\"text-align:left;padding-right:1em\">{}</th><td>{}</td></tr>\n",
                escape_html(label),
                escape_html(&value)
            ));
        }
        self.body.push_str("</table>\n");
        self
    }

    /// A link with its own words, the address written out below for clients that hide it.
    pub fn link(mut self, words: &str, url: &str) -> Self {
        let url = escape_html(url);
        self.body.push_str(&format!(
            "<p><a href=\"{url}\">{}</a><br><small>{url}</small></p>\n",
            escape_html(words)
        ));
        self
    }

    /// The whole HTML document, titled with the mail's subject.
    pub fn finish(self, subject: &str) -> String {
        document(subject, &self.body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_becomes_escaped_paragraphs_with_clickable_links() {
        expect_test::expect![[r#"
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Hi &amp; bye</title></head><body style="font-family:sans-serif;line-height:1.5;max-width:40em">
            <p>Dear &lt;b&gt;Ada&lt;/b&gt;,<br>
            thanks.</p>
            <p>Open <a href="https://shop.example/a?b=1&amp;c=&quot;2&quot;">https://shop.example/a?b=1&amp;c=&quot;2&quot;</a> now.</p>
            </body></html>
        "#]]
        .assert_eq(&text_as_html(
            "Hi & bye",
            "Dear <b>Ada</b>,\nthanks.\n\n\nOpen https://shop.example/a?b=1&c=\"2\" now.\n",
        ));
    }

    #[test]
    fn composed_html_escapes_every_piece() {
        let html = MailHtml::new()
            .heading("<script>")
            .table([("Total", "€5 <b>".to_owned())])
            .link("Open \"it\"", "https://x.example/?a=<1>")
            .finish("S");
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(
            html.contains("href=\"https://x.example/?a=&lt;1&gt;\""),
            "{html}"
        );
        assert!(html.contains("Open &quot;it&quot;"), "{html}");
    }
}
