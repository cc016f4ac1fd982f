//! HTML from plugins, cleaned to an allow-list before it can reach a page.

/// HTML a plugin returned, after the allow-list sanitiser.
///
/// Beyond what owners' rich text may hold ([`crate::site::SafeHtml`]), plugins may draw SVG
/// (charts) and use tables, `time` and `figure`. Nothing executable survives: no `script`,
/// `style`, `iframe`, `object` or `form` elements, no event-handler or `style` attributes, and
/// only `http`, `https`, `mailto` and `tel` URLs, so no `javascript:` link and no form posting
/// elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginHtml(String);

const SVG_TAGS: &[&str] = &[
    "svg", "g", "title", "desc", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "path", "text", "tspan",
];

const SVG_ATTRIBUTES: &[&str] = &[
    "viewBox",
    "role",
    "aria-labelledby",
    "aria-label",
    "aria-hidden",
    "x",
    "y",
    "x1",
    "y1",
    "x2",
    "y2",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "width",
    "height",
    "points",
    "d",
    "text-anchor",
    "transform",
];

impl PluginHtml {
    pub fn sanitize(raw: &str) -> Self {
        let mut builder = ammonia::Builder::default();
        builder
            .add_tags(SVG_TAGS)
            .add_tags(["figure", "figcaption", "time", "caption", "section"])
            .add_generic_attributes(["id", "class", "datetime", "scope"])
            .add_generic_attributes(SVG_ATTRIBUTES)
            .url_schemes(["http", "https", "mailto", "tel"].into_iter().collect())
            .link_rel(Some("noopener noreferrer"));
        Self(builder.clean(raw).to_string())
    }

    /// The fixed fallback text, which needs no cleaning.
    pub fn fallback() -> Self {
        Self(super::FALLBACK_HTML.to_owned())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::PluginHtml;

    #[test]
    fn charts_keep_their_svg_and_table() {
        let chart = r#"<figure class="chart"><svg viewBox="0 0 10 10" role="img" aria-labelledby="t"><title id="t">Sales</title><rect x="1" y="2" width="3" height="4"></rect></svg><table><caption>Sales</caption><tbody><tr><th scope="row">Jan</th><td>3</td></tr></tbody></table></figure>"#;
        assert_eq!(PluginHtml::sanitize(chart).as_str(), chart);
    }

    #[test]
    fn scripts_handlers_forms_and_javascript_urls_are_removed() {
        let html = PluginHtml::sanitize(
            r#"<p onclick="x()">Hi</p><script>x()</script><a href="javascript:x()">a</a><form action="https://elsewhere.example"><input name="card"></form><svg onload="x()"><a href="javascript:x()"><text>t</text></a></svg>"#,
        );
        let html = html.as_str();
        for forbidden in [
            "onclick",
            "<script",
            "javascript:",
            "<form",
            "<input",
            "onload",
        ] {
            assert!(!html.contains(forbidden), "{forbidden} survived in {html}");
        }
        assert!(html.starts_with("<p>Hi</p>"), "{html}");
    }
}
