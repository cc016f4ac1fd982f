//! `popup-vectors.json`: the Rust popup display rules' decision for a grid of settings, stored
//! records and page situations. The web island's rules are tested against every entry, so the
//! browser decides exactly as the core does.

use vitrine_core::popup::{DAY_MS, PageSituation, PopupDecision, PopupRecord, decide};
use vitrine_core::site::PopupOverlaySettings;

/// When the stored record says the popup was closed.
const CLOSED_AT: i64 = 1_700_000_000_000;

fn settings_grid() -> Vec<PopupOverlaySettings> {
    let mut grid = Vec::new();
    for style in ["none", "full"] {
        for show_until_signup in [false, true] {
            for display_frequency in [-1, 0, 7] {
                for enable_mobile in [false, true] {
                    grid.push(PopupOverlaySettings {
                        style: style.to_owned(),
                        version: 2,
                        show_until_signup,
                        display_frequency,
                        enable_mobile,
                        content: Default::default(),
                    });
                }
            }
        }
    }
    grid
}

fn records() -> Vec<Option<PopupRecord>> {
    let mut records = vec![None];
    for version in [1, 2] {
        for submitted in [false, true] {
            for date_closed in [None, Some(CLOSED_AT)] {
                records.push(Some(PopupRecord {
                    date_closed,
                    version,
                    submitted,
                }));
            }
        }
    }
    records
}

/// Pages on which the popup never opens, and pages at several times after closing.
fn pages() -> (Vec<PageSituation>, Vec<PageSituation>) {
    let base = PageSituation {
        not_found: false,
        lock_screen: false,
        screenshot: false,
        mobile: false,
        banner_pending: false,
        now_ms: CLOSED_AT + DAY_MS,
    };
    let blocking = vec![
        PageSituation {
            not_found: true,
            ..base
        },
        PageSituation {
            lock_screen: true,
            ..base
        },
        PageSituation {
            screenshot: true,
            ..base
        },
        PageSituation {
            mobile: true,
            ..base
        },
        PageSituation {
            banner_pending: true,
            ..base
        },
    ];
    let mut timed = vec![base];
    for now_ms in [
        CLOSED_AT,
        CLOSED_AT + 7 * DAY_MS - 1,
        CLOSED_AT + 7 * DAY_MS,
        CLOSED_AT + 400 * DAY_MS,
    ] {
        timed.push(PageSituation { now_ms, ..base });
    }
    (blocking, timed)
}

/// A JSON object with its keys in the given order. Written by hand rather than through a JSON
/// map, whose key order depends on serde_json's features.
fn object(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(key, value)| format!("\"{key}\":{value}"))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn decision(decision: PopupDecision) -> String {
    match decision {
        PopupDecision::Show => object(&[("decision", "\"show\"".into())]),
        PopupDecision::Hide(reason) => object(&[
            ("decision", "\"hide\"".into()),
            (
                "reason",
                serde_json::to_string(&reason).expect("a reason serialises"),
            ),
        ]),
    }
}

fn entry(
    settings: &PopupOverlaySettings,
    record: Option<&PopupRecord>,
    page: &PageSituation,
) -> String {
    let expected = decide(settings, record, page);
    // The settings are written in the page context's camelCase shape, which the island reads.
    let settings = object(&[
        (
            "style",
            serde_json::to_string(&settings.style).expect("a string serialises"),
        ),
        ("version", settings.version.to_string()),
        ("showUntilSignup", settings.show_until_signup.to_string()),
        ("displayFrequency", settings.display_frequency.to_string()),
        ("enableMobile", settings.enable_mobile.to_string()),
    ]);
    let record = match record {
        None => "null".to_owned(),
        Some(record) => object(&[
            (
                "date-closed",
                record
                    .date_closed
                    .map_or("null".to_owned(), |at| at.to_string()),
            ),
            ("version", record.version.to_string()),
            ("submitted", record.submitted.to_string()),
        ]),
    };
    let page = object(&[
        ("notFound", page.not_found.to_string()),
        ("lockScreen", page.lock_screen.to_string()),
        ("screenshot", page.screenshot.to_string()),
        ("mobile", page.mobile.to_string()),
        ("bannerPending", page.banner_pending.to_string()),
        ("nowMs", page.now_ms.to_string()),
    ]);
    object(&[
        ("settings", settings),
        ("record", record),
        ("page", page),
        ("expected", decision(expected)),
    ])
}

/// Every settings combination on every page that hides the popup whatever was stored, then the
/// visible styles with every stored record at several times after closing.
fn entries() -> Vec<String> {
    let mut entries = Vec::new();
    let (blocking, timed) = pages();
    for settings in settings_grid() {
        for page in &blocking {
            entries.push(entry(&settings, None, page));
        }
    }
    for settings in settings_grid().iter().filter(|s| s.style != "none") {
        for record in records() {
            for page in &timed {
                entries.push(entry(settings, record.as_ref(), page));
            }
        }
    }
    entries
}

pub fn render() -> String {
    let lines: Vec<String> = entries().into_iter().map(|e| format!("  {e}")).collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_the_grid_and_every_outcome() {
        let parsed: serde_json::Value = serde_json::from_str(&render()).unwrap();
        assert_eq!(parsed.as_array().unwrap().len(), entries().len());
        let text = render();
        for outcome in [
            "\"show\"",
            "style-none",
            "not-found-page",
            "lock-screen",
            "screenshot",
            "mobile-disabled",
            "banner-pending",
            "submitted",
            "never-again",
            "recently-closed",
        ] {
            assert!(text.contains(outcome), "no vector for {outcome}");
        }
    }
}
