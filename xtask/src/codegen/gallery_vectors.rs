//! `gallery-vectors.json`: the core's gallery rules (index moves, preload windows, carousel
//! rows, groups and controls, touch classification, axis lock, swipe durations, design
//! mapping and transition names) for a grid of inputs. The gallery island's rules are tested
//! against every entry, so the browser moves exactly as the core says.

use serde_json::{Value, json};
use vitrine_core::gallery::{
    GalleryIndex, GalleryLayout, TouchTrack, Transition, axis_lock, carousel_controls, clamp_group,
    classify_touch, preload_window, slides_per_row_for_width, swipe_duration_ms,
};

/// Sequences of index operations: "next", "previous", "settle" or a number to go to.
fn index_vectors() -> Vec<Value> {
    let scripts: [&[Value]; 5] = [
        &[
            json!("next"),
            json!("next"),
            json!("settle"),
            json!("next"),
            json!("settle"),
            json!("next"),
        ],
        &[
            json!("previous"),
            json!("settle"),
            json!("previous"),
            json!("settle"),
            json!("next"),
        ],
        &[
            json!(-1),
            json!("settle"),
            json!(7),
            json!("settle"),
            json!(-8),
            json!("next"),
        ],
        &[
            json!("next"),
            json!("settle"),
            json!(1),
            json!("previous"),
            json!("settle"),
            json!("previous"),
            json!("settle"),
            json!("previous"),
        ],
        &[
            json!("settle"),
            json!("settle"),
            json!(2),
            json!("settle"),
            json!("next"),
            json!("settle"),
            json!("next"),
        ],
    ];
    let mut out = Vec::new();
    for count in [0u32, 1, 3, 5] {
        for looping in [false, true] {
            for script in scripts {
                let mut index = GalleryIndex::new(count, looping);
                let steps: Vec<Value> = script
                    .iter()
                    .map(|op| {
                        let result = match op.as_str() {
                            Some("next") => Some(index.next()),
                            Some("previous") => Some(index.previous()),
                            Some(_) => {
                                index.settle();
                                None
                            }
                            None => Some(index.go_to(op.as_i64().unwrap_or(0))),
                        };
                        let outcome = match result {
                            None => Value::Null,
                            Some(Ok(event)) => serde_json::to_value(event).unwrap_or_default(),
                            Some(Err(refusal)) => json!({ "refused": refusal }),
                        };
                        json!({ "op": op, "outcome": outcome, "current": index.current(),
                                "atEnd": index.at_end(), "atBeginning": index.at_beginning() })
                    })
                    .collect();
                out.push(json!({ "count": count, "loop": looping, "steps": steps }));
            }
        }
    }
    out
}

fn preload_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for count in [0u32, 1, 2, 5, 9] {
        for current in [0u32, 1, 4, 8] {
            for preload in [0u32, 1, 2] {
                for looping in [false, true] {
                    for lazy in [false, true] {
                        let window = preload_window(
                            current.min(count.saturating_sub(1)),
                            count,
                            preload,
                            looping,
                            lazy,
                        );
                        out.push(
                            json!({ "current": current.min(count.saturating_sub(1)), "count": count,
                            "preload": preload, "loop": looping, "lazy": lazy, "window": window }),
                        );
                    }
                }
            }
        }
    }
    out
}

fn carousel_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for per_row in [1u8, 2, 3, 5] {
        for width in [320u32, 479, 480, 723, 724, 1280] {
            out.push(json!({ "kind": "row", "perRow": per_row, "width": width,
                "shown": slides_per_row_for_width(per_row, width) }));
        }
        for count in [1u32, 3, 7] {
            for target in [-1i64, 0, 1, 2, 5] {
                let group = clamp_group(target, count, per_row);
                out.push(
                    json!({ "kind": "group", "perRow": per_row, "count": count, "target": target,
                    "group": group, "controls": carousel_controls(group, count, per_row) }),
                );
            }
        }
    }
    out
}

fn gesture_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for dx in [
        -120.0, -50.0, -49.0, -11.0, -1.0, 0.0, 0.5, 1.5, 10.0, 50.0, 90.0,
    ] {
        for dy in [-60.0, -10.5, 0.0, 1.0, 49.0, 70.0] {
            for elapsed_ms in [0.0, 120.0, 250.0, 251.0, 800.0] {
                let track = TouchTrack { dx, dy, elapsed_ms };
                out.push(json!({ "dx": dx, "dy": dy, "elapsedMs": elapsed_ms,
                    "gesture": classify_touch(track), "axis": axis_lock(dx, dy) }));
            }
        }
    }
    out
}

fn swipe_duration_vectors() -> Vec<Value> {
    let mut out = Vec::new();
    for width in [360u32, 766, 767, 1440] {
        for remaining in [0.0, 120.0, 400.0, 900.0] {
            for velocity in [0.0, 0.5, 1.0, 3.0, -2.0] {
                out.push(
                    json!({ "width": width, "remaining": remaining, "velocity": velocity,
                    "ms": swipe_duration_ms(width, remaining, velocity) }),
                );
            }
        }
    }
    out
}

fn naming_vectors() -> Value {
    let designs = [
        "stacked",
        "slider",
        "slideshow",
        "grid",
        "autogrid",
        "autocolumns",
        "autorows",
        "carousel",
        "list",
        "mosaic",
        " Grid ",
        "",
    ];
    let transitions = [
        "fade",
        "ken-burns",
        "new-swipe",
        "scroll",
        "swipe",
        "spin",
        "Fade",
    ];
    json!({
        "layouts": designs.iter().map(|d| json!({ "design": d, "layout": GalleryLayout::from_design(d).name() })).collect::<Vec<_>>(),
        "transitions": transitions.iter().map(|name| match Transition::parse(name) {
            Ok(t) => json!({ "name": name, "transition": t.name() }),
            Err(error) => json!({ "name": name, "error": error.to_string() }),
        }).collect::<Vec<_>>(),
    })
}

pub fn render() -> String {
    let all = json!({
        "index": index_vectors(),
        "preload": preload_vectors(),
        "carousel": carousel_vectors(),
        "gestures": gesture_vectors(),
        "swipeDurations": swipe_duration_vectors(),
        "naming": naming_vectors(),
    });
    let mut text = serde_json::to_string_pretty(&all).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_every_outcome() {
        let text = render();
        for outcome in [
            "moved",
            "unchanged",
            "reached-end",
            "reached-beginning",
            "in-motion",
            "empty",
            "swipeLeft",
            "swipeUp",
            "tap",
            "touchMoveEnd",
            "Could not find transition named spin",
        ] {
            assert!(text.contains(outcome), "no vector for {outcome}");
        }
    }
}
