//! The carousel's rows and groups (spec 001 s4 "Carousel"): slides per row shrink on narrow
//! windows, group navigation is clamped to the first and last group, and the controls are
//! hidden when every slide fits in one row and disabled at the ends.

use serde::Serialize;

use super::constants::{CAROUSEL_MEDIUM_BELOW_PX, CAROUSEL_NARROW_BELOW_PX};

/// Below 480 px a row of more than one slide shows 2; below 724 px a row of more than two
/// shows 3.
pub fn slides_per_row_for_width(configured: u8, window_width: u32) -> u8 {
    let configured = configured.max(1);
    if window_width < CAROUSEL_NARROW_BELOW_PX && configured > 1 {
        2
    } else if window_width < CAROUSEL_MEDIUM_BELOW_PX && configured > 2 {
        3
    } else {
        configured
    }
}

/// How many groups (rows' worth of slides) `count` slides make.
fn group_count(count: u32, per_row: u8) -> u32 {
    count.div_ceil(u32::from(per_row.max(1))).max(1)
}

/// The group to show when asked for `target`: never before the first nor after the last.
pub fn clamp_group(target: i64, count: u32, per_row: u8) -> u32 {
    let last = i64::from(group_count(count, per_row) - 1);
    u32::try_from(target.clamp(0, last)).unwrap_or(0)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CarouselControls {
    pub hidden: bool,
    pub previous_disabled: bool,
    pub next_disabled: bool,
}

pub fn carousel_controls(group: u32, count: u32, per_row: u8) -> CarouselControls {
    let last = group_count(count, per_row) - 1;
    CarouselControls {
        hidden: count <= u32::from(per_row.max(1)),
        previous_disabled: group == 0,
        next_disabled: group >= last,
    }
}
