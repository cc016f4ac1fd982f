//! Property: whatever a plugin returns, the sanitised HTML holds nothing executable.

use proptest::prelude::*;
use vitrine_core::plugins::PluginHtml;

/// Fragments hostile plugins use, mixed with harmless markup and arbitrary text.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<script>steal()</script>".to_owned()),
        Just("<p onclick=\"steal()\">".to_owned()),
        Just("<img src=x onerror=steal()>".to_owned()),
        Just("<a href=\"javascript:steal()\">".to_owned()),
        Just("<a href=\"JaVaScRiPt:steal()\">".to_owned()),
        Just("<a href=\"&#106;avascript:steal()\">".to_owned()),
        Just(
            "<svg onload=steal()><a href=\"javascript:steal()\"><text>t</text></a></svg>"
                .to_owned()
        ),
        Just("<svg><script>steal()</script></svg>".to_owned()),
        Just("<form action=\"https://elsewhere.example\"><input name=card></form>".to_owned()),
        Just("<iframe src=\"https://elsewhere.example\"></iframe>".to_owned()),
        Just("<style>body{display:none}</style>".to_owned()),
        Just("<object data=x></object><embed src=x>".to_owned()),
        Just("<math><mi xlink:href=\"javascript:steal()\">x</mi></math>".to_owned()),
        Just("<svg><animate attributeName=href to=javascript:steal() /></svg>".to_owned()),
        Just("<p>".to_owned()),
        Just("</p>".to_owned()),
        Just("<rect x=\"1\" y=\"2\"></rect>".to_owned()),
        "[a-z<>=\"' /:;()]{0,12}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sanitised_plugin_html_never_holds_an_executable_construct(parts in prop::collection::vec(fragment(), 0..8)) {
        let html = PluginHtml::sanitize(&parts.concat());
        let lower = html.as_str().to_ascii_lowercase();
        for forbidden in ["<script", "<style", "<iframe", "<form", "<input", "<object", "<embed", "<animate", "javascript:", " on", "\ton", "\non"] {
            let found = match forbidden {
                // An event-handler attribute is ` on...=`; plain text may contain " on" freely.
                " on" | "\ton" | "\non" => lower.match_indices(forbidden).any(|(at, _)| {
                    let rest = &lower[at + forbidden.len()..];
                    let name_end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
                    rest[name_end..].starts_with('=') && inside_tag(&lower, at)
                }),
                _ => lower.contains(forbidden),
            };
            prop_assert!(!found, "{forbidden} survived in {}", html.as_str());
        }
    }
}

/// Whether position `at` is inside a tag (after a `<` with no `>` since).
fn inside_tag(html: &str, at: usize) -> bool {
    let before = &html[..at];
    match (before.rfind('<'), before.rfind('>')) {
        (Some(open), Some(close)) => open > close,
        (Some(_), None) => true,
        _ => false,
    }
}

/// Pieces of CSS, hostile and harmless, that a plugin's stylesheet is made of.
fn css_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(".a { color: red }".to_owned()),
        Just("svg > rect:hover { fill: rgb(1, 2, 3) }".to_owned()),
        Just("@import 'https://elsewhere.example/x.css';".to_owned()),
        Just(".a { background: url(https://elsewhere.example/t.png) }".to_owned()),
        Just(".a { background: URL(x) }".to_owned()),
        Just(".a { width: expression(steal()) }".to_owned()),
        Just(".a { color: \\75 rl(x) }".to_owned()),
        Just("</style><script>steal()</script>".to_owned()),
        Just("} body { display: none }".to_owned()),
        Just("/* a comment */".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        "[ -~]{0,20}".prop_map(|text| text),
    ]
}

proptest! {
    #[test]
    fn plugin_css_never_fetches_escapes_or_styles_outside_its_block(
        pieces in proptest::collection::vec(css_piece(), 0..6)
    ) {
        let raw = pieces.concat();
        if let Ok(css) = vitrine_core::plugins::PluginCss::scope(&raw, "b7") {
            let lower = css.as_str().to_ascii_lowercase();
            for forbidden in ["url(", "@", "\\", "<", "expression("] {
                prop_assert!(!lower.contains(forbidden), "{forbidden} in {}", css.as_str());
            }
            for rule in css.as_str().lines() {
                let (selectors, _) = rule.split_once('{').unwrap_or((rule, ""));
                for selector in selectors.split(',') {
                    prop_assert!(selector.starts_with("#block-b7 "), "{rule}");
                }
            }
        }
    }
}
