//! Touch gestures (spec 001 s4 "Touch gestures", s9 "Swipe"): a touch that travels at least
//! 50 px within 250 ms is a swipe in its main direction; one that moved 1 px or less is a tap;
//! anything else is a move that ended. Movement locks to an axis once it passes 10 px along
//! one, and a swipe's animation lasts between the clamps for the screen's width.

use serde::{Deserialize, Serialize};

use super::constants::{
    AXIS_LOCK_PX, SWIPE_DISTANCE_PX, SWIPE_NARROW_BELOW_PX, SWIPE_NARROW_MS, SWIPE_TIME_MS,
    SWIPE_WIDE_MS, TAP_MAX_MOVE_PX,
};

/// A finished touch: how far it travelled and how long it took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TouchTrack {
    pub dx: f64,
    pub dy: f64,
    pub elapsed_ms: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Gesture {
    SwipeLeft,
    SwipeRight,
    SwipeUp,
    SwipeDown,
    Tap,
    TouchMoveEnd,
}

pub fn classify_touch(track: TouchTrack) -> Gesture {
    let (ax, ay) = (track.dx.abs(), track.dy.abs());
    let distance = ax.max(ay);
    if track.elapsed_ms <= SWIPE_TIME_MS && distance >= SWIPE_DISTANCE_PX {
        return if ax >= ay {
            if track.dx < 0.0 {
                Gesture::SwipeLeft
            } else {
                Gesture::SwipeRight
            }
        } else if track.dy < 0.0 {
            Gesture::SwipeUp
        } else {
            Gesture::SwipeDown
        };
    }
    if distance <= TAP_MAX_MOVE_PX {
        Gesture::Tap
    } else {
        Gesture::TouchMoveEnd
    }
}

/// The axis a moving touch is locked to, once it has travelled more than 10 px along one;
/// `None` while it is still undecided. A horizontal lock lets the gallery take the touch, a
/// vertical one leaves it to the page's scrolling.
pub fn axis_lock(dx: f64, dy: f64) -> Option<Axis> {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax.max(ay) <= AXIS_LOCK_PX {
        None
    } else if ax >= ay {
        Some(Axis::X)
    } else {
        Some(Axis::Y)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    X,
    Y,
}

/// How long a swipe's slide animation lasts: the distance left over the touch's speed,
/// clamped to 200-400 ms under 767 px wide and 300-500 ms on wider screens.
pub fn swipe_duration_ms(window_width: u32, remaining_px: f64, velocity_px_per_ms: f64) -> u32 {
    let (low, high) = if window_width < SWIPE_NARROW_BELOW_PX {
        SWIPE_NARROW_MS
    } else {
        SWIPE_WIDE_MS
    };
    let speed = velocity_px_per_ms.abs();
    if !speed.is_finite() || speed <= f64::EPSILON || !remaining_px.is_finite() {
        return high;
    }
    let wanted = remaining_px.abs() / speed;
    // Clamped into a range of u32 milliseconds, so the cast keeps the value.
    wanted.clamp(f64::from(low), f64::from(high)).round() as u32
}
