//! The widget rules as test vectors and constants for the web client, written by
//! `cargo xtask codegen` to `web/src/generated/widget-vectors.json` and `widget-constants.ts`,
//! so the islands' TypeScript is tested against these rules rather than re-typed by hand.

use std::time::Duration;

use serde_json::{Value, json};

use super::{marquee, popups, text_effect, timing, tooltip};
use crate::human::{file_size, relative_time_bucket};
use crate::site::{MarqueeDirection, MarqueeProps};

/// Every vector, by rule.
pub fn widget_vectors() -> Value {
    json!({
        "textEffectDuration": text_effect_durations(),
        "marquee": marquee_vectors(),
        "tooltipPosition": tooltip_positions(),
        "popupTimers": popup_timers(),
        "throttle": throttle_vectors(),
        "relativeTime": relative_times(),
        "fileSize": file_sizes(),
    })
}

fn text_effect_durations() -> Vec<Value> {
    let mut cases = Vec::new();
    for set in [0.75, 0.3, 2.0] {
        for distance in [0.0, 0.05, 0.2, 0.35, 0.5, 1.0, 1.5, -0.5, -2.0] {
            cases.push(json!({
                "set": set,
                "distance": distance,
                "seconds": text_effect::scaled_duration_s(set, distance),
            }));
        }
    }
    cases
}

fn marquee_vectors() -> Value {
    let segments: Vec<Value> = [0.0, 120.0, 250.0, 640.0, 1000.0, 2400.0]
        .into_iter()
        .map(|measured| json!([measured, marquee::segment_width_px(measured)]))
        .collect();
    let items: Vec<Value> = [0.0, 120.0, 640.0, 2400.0]
        .into_iter()
        .map(|measured| json!([measured, marquee::item_width_px(measured)]))
        .collect();
    let regions: Vec<Value> = [0.0, 49.0, 50.0, 320.0, 1920.0]
        .into_iter()
        .map(|width| json!([width, marquee::region_runs(width)]))
        .collect();
    let copies: Vec<Value> = [
        (0.0, 400.0),
        (320.0, 400.0),
        (1280.0, 300.0),
        (1920.0, 100.0),
    ]
    .into_iter()
    .map(|(region, segment)| json!([region, segment, marquee::copies_needed(region, segment)]))
    .collect();
    let mut offsets = Vec::new();
    let mut waves = Vec::new();
    for direction in [MarqueeDirection::Left, MarqueeDirection::Right] {
        for (speed, frequency, intensity) in [(1.0, 1.0, 0.0), (0.5, 2.0, 1.0), (3.0, 0.5, 2.5)] {
            let props = MarqueeProps {
                wave_frequency: frequency,
                wave_intensity: intensity,
                animation_direction: direction,
                animation_speed: speed,
                paused_on_hover: false,
            };
            let json_props = json!({
                "direction": if direction == MarqueeDirection::Left { "left" } else { "right" },
                "speed": speed,
                "waveFrequency": frequency,
                "waveIntensity": intensity,
            });
            for elapsed in [0.0, 750.0, 4000.0, 60_000.0] {
                offsets.push(json!({
                    "props": json_props,
                    "measured": 1400.0,
                    "elapsedMs": elapsed,
                    "offset": marquee::offset_px(&props, 1400.0, elapsed),
                }));
            }
            for x in [0.0, 50.0, 100.0, 333.0] {
                waves.push(json!({
                    "props": json_props,
                    "measured": 400.0,
                    "x": x,
                    "offset": marquee::wave_offset_px(&props, 400.0, x),
                }));
            }
        }
    }
    json!({
        "segmentWidth": segments,
        "itemWidth": items,
        "regionRuns": regions,
        "copies": copies,
        "offset": offsets,
        "wave": waves,
    })
}

fn tooltip_positions() -> Vec<Value> {
    let viewports = [(1280.0, 800.0), (390.0, 844.0), (200.0, 120.0)];
    let anchors = [
        (0.0, 0.0),
        (100.0, 100.0),
        (1200.0, 780.0),
        (370.0, 830.0),
        (195.0, 60.0),
    ];
    let mut cases = Vec::new();
    for viewport in viewports {
        for anchor in anchors {
            let (x, y) = tooltip::position(anchor, viewport, 48.0);
            cases.push(json!({
                "anchor": [anchor.0, anchor.1],
                "viewport": [viewport.0, viewport.1],
                "height": 48.0,
                "width": tooltip::width_px(viewport.0),
                "position": [x, y],
            }));
        }
    }
    cases
}

fn popup_timers() -> Vec<Value> {
    let mut cases = Vec::new();
    for kind in popups::PopupKind::ALL {
        for timer in [None, Some(0), Some(1500)] {
            cases.push(json!({
                "kind": kind,
                "timer": timer,
                "autoHideMs": kind.auto_hide_ms(timer),
                "buttons": kind.buttons(),
            }));
        }
    }
    cases
}

fn throttle_vectors() -> Vec<Value> {
    let thirty: Vec<f64> = (1..=30).map(f64::from).collect();
    [vec![], vec![4.0], vec![10.0, 20.0], thirty]
        .into_iter()
        .map(|runs| json!({ "runs": runs, "waitMs": timing::throttle_wait_ms(&runs) }))
        .collect()
}

fn relative_times() -> Vec<Value> {
    [
        0u64, 4, 5, 59, 60, 119, 120, 3599, 3600, 7199, 7200, 86_399, 86_400, 172_799, 172_800,
        400_000,
    ]
    .into_iter()
    .map(|seconds| {
        let bucket = relative_time_bucket(Duration::from_secs(seconds));
        json!({
            "seconds": seconds,
            "bucket": bucket.name(),
            "count": bucket.count(),
            "english": bucket.to_string(),
        })
    })
    .collect()
}

fn file_sizes() -> Vec<Value> {
    // Sizes a browser can hold exactly in a double.
    [
        0u64,
        1,
        1023,
        1024,
        1536,
        1_048_575,
        1_048_576,
        2_415_919_104,
        1 << 50,
        1 << 52,
    ]
    .into_iter()
    .map(|bytes| json!([bytes, file_size(bytes)]))
    .collect()
}

/// The constants the islands share with these rules, as `(name, value)` pairs of TypeScript.
pub fn widget_constants() -> Vec<(&'static str, String)> {
    let number = |value: f64| value.to_string();
    let string = |text: &str| serde_json::Value::from(text).to_string();
    let names = |names: Vec<&str>| {
        format!(
            "[{}] as const",
            names.into_iter().map(string).collect::<Vec<_>>().join(", ")
        )
    };
    vec![
        (
            "TEXT_EFFECT_SHAPES",
            names(
                text_effect::TextEffectShape::ALL
                    .iter()
                    .map(|s| s.name())
                    .collect(),
            ),
        ),
        (
            "TEXT_EFFECT_ANIMATIONS",
            names(
                text_effect::TextEffectAnimation::ALL
                    .iter()
                    .map(|a| a.name())
                    .collect(),
            ),
        ),
        ("TEXT_EFFECT_VIEW_BOX", string(text_effect::VIEW_BOX)),
        (
            "TEXT_EFFECT_PATHS",
            format!(
                "{{\n{}}} as const",
                text_effect::TextEffectShape::ALL
                    .iter()
                    .map(|shape| format!(
                        "  {}: [{}],\n",
                        shape.name(),
                        shape
                            .paths()
                            .iter()
                            .map(|p| string(p))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .collect::<String>()
            ),
        ),
        (
            "TEXT_EFFECT_DEFAULT_DURATION_S",
            number(text_effect::DEFAULT_DURATION_S),
        ),
        (
            "TEXT_EFFECT_FIRST_PLAY_DELAY_MS",
            text_effect::FIRST_PLAY_DELAY_MS.to_string(),
        ),
        (
            "TEXT_EFFECT_MUTATION_DEBOUNCE_MS",
            text_effect::MUTATION_DEBOUNCE_MS.to_string(),
        ),
        (
            "TEXT_EFFECT_FADE_SCALE_FROM",
            number(text_effect::FADE_SCALE_FROM),
        ),
        (
            "TEXT_EFFECT_MIN_DURATION_SHARE",
            number(text_effect::MIN_DURATION_SHARE),
        ),
        (
            "MARQUEE_MIN_SEGMENT_WIDTH_PX",
            number(marquee::MIN_SEGMENT_WIDTH_PX),
        ),
        (
            "MARQUEE_MAX_SEGMENT_WIDTH_PX",
            number(marquee::MAX_SEGMENT_WIDTH_PX),
        ),
        (
            "MARQUEE_MIN_REGION_WIDTH_PX",
            number(marquee::MIN_REGION_WIDTH_PX),
        ),
        (
            "MARQUEE_RERENDER_DEBOUNCE_MS",
            marquee::RERENDER_DEBOUNCE_MS.to_string(),
        ),
        (
            "MARQUEE_BASE_SPEED_PX_PER_S",
            number(marquee::BASE_SPEED_PX_PER_S),
        ),
        (
            "MARQUEE_WAVE_PX_PER_INTENSITY",
            number(marquee::WAVE_PX_PER_INTENSITY),
        ),
        (
            "MARQUEE_ENVIRONMENT_NOT_READY",
            string(marquee::MARQUEE_ENVIRONMENT_NOT_READY),
        ),
        ("MARQUEE_NO_WINDOW", string(marquee::MARQUEE_NO_WINDOW)),
        ("TOOLTIP_SHOW_DELAY_MS", tooltip::SHOW_DELAY_MS.to_string()),
        ("TOOLTIP_WIDTH_PX", number(tooltip::WIDTH_PX)),
        (
            "TOOLTIP_CURSOR_OFFSET_PX",
            number(tooltip::CURSOR_OFFSET_PX),
        ),
        ("TOOLTIP_EDGE_MARGIN_PX", number(tooltip::EDGE_MARGIN_PX)),
        ("TOOLTIP_FADE_S", number(tooltip::FADE_S)),
        (
            "TOOLTIP_MIN_FONT_SIZE_PX",
            number(tooltip::MIN_FONT_SIZE_PX),
        ),
        (
            "POPUP_INFORMATION_AUTO_HIDE_MS",
            popups::INFORMATION_AUTO_HIDE_MS.to_string(),
        ),
        ("POPUP_WIDTH_PX", popups::WIDTH_PX.to_string()),
        ("POPUP_PADDING_PX", popups::PADDING_PX.to_string()),
        (
            "POPUP_HIDE_FALLBACK_MS",
            popups::HIDE_FALLBACK_MS.to_string(),
        ),
        ("THROTTLE_SAMPLES", timing::THROTTLE_SAMPLES.to_string()),
        (
            "WAIT_FOR_ELEMENT_POLL_MS",
            timing::WAIT_FOR_ELEMENT_POLL_MS.to_string(),
        ),
        (
            "RELATIVE_TIME_REFRESH_MS",
            timing::RELATIVE_TIME_REFRESH_MS.to_string(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_cover_every_rule() {
        let vectors = widget_vectors();
        for key in [
            "textEffectDuration",
            "marquee",
            "tooltipPosition",
            "popupTimers",
            "throttle",
            "relativeTime",
            "fileSize",
        ] {
            assert!(vectors.get(key).is_some(), "{key}");
        }
        assert_eq!(vectors["popupTimers"].as_array().unwrap().len(), 9);
        assert_eq!(vectors["relativeTime"][2]["english"], "5 seconds ago");
    }

    #[test]
    fn constants_are_typescript_literals() {
        let constants = widget_constants();
        let shapes = &constants[0].1;
        assert!(shapes.starts_with("[\"circle\", \"cross\""), "{shapes}");
        assert!(
            constants
                .iter()
                .any(|(name, value)| *name == "TOOLTIP_SHOW_DELAY_MS" && value == "1200")
        );
    }
}
