//! The marquee band (001 s3, s8, s9): how wide one copy of the text is laid out, when the band
//! is wide enough to run, how far it moves, and the wave that bends it. The props themselves
//! live with the block (`site::MarqueeProps`).

use crate::site::{MarqueeDirection, MarqueeProps};

/// A path segment (the stretch over which the wave makes its waves) is at least this wide...
/// (001 s9). A short text is also laid out this wide, so the band is not a blur of repeats.
pub const MIN_SEGMENT_WIDTH_PX: f64 = 250.0;
/// ...and at most this wide: a longer text is shown in full, its wave repeating per segment.
pub const MAX_SEGMENT_WIDTH_PX: f64 = 1000.0;
/// A band narrower than this does not run: its text is shown still (001 s9).
pub const MIN_REGION_WIDTH_PX: f64 = 50.0;
/// A resize re-lays the band out after this quiet period (001 s9).
pub const RERENDER_DEBOUNCE_MS: u32 = 1000;
/// Pixels per second the band moves at speed 1. Our choice: the specification gives the speed
/// as a factor only; 60 px/s reads comfortably on a phone and a desktop alike.
pub const BASE_SPEED_PX_PER_S: f64 = 60.0;
/// The wave's height in pixels per unit of waveIntensity. Our choice, as for the speed.
pub const WAVE_PX_PER_INTENSITY: f64 = 10.0;

/// Logged (as a warning, the event dropped) when an event reaches the band before it is set up
/// (001 s8).
pub const MARQUEE_ENVIRONMENT_NOT_READY: &str =
    "Event is firing before the environment is initialized!";
/// Thrown when the band's animation is started without a window (001 s8).
pub const MARQUEE_NO_WINDOW: &str = "Cannot init animations without a window context";

/// The width of one path segment for a text measured this wide: held between 250 and 1000 px.
/// A measurement that is not a number counts as the narrowest.
pub fn segment_width_px(measured_px: f64) -> f64 {
    if measured_px.is_nan() {
        return MIN_SEGMENT_WIDTH_PX;
    }
    measured_px.clamp(MIN_SEGMENT_WIDTH_PX, MAX_SEGMENT_WIDTH_PX)
}

/// The width one copy of the text takes in the band: its measured width, at least 250 px (the
/// text is never cut). The band loops by this width.
pub fn item_width_px(measured_px: f64) -> f64 {
    if measured_px.is_finite() {
        measured_px.max(MIN_SEGMENT_WIDTH_PX)
    } else {
        MIN_SEGMENT_WIDTH_PX
    }
}

/// Whether a band this wide runs at all.
pub fn region_runs(region_width_px: f64) -> bool {
    region_width_px >= MIN_REGION_WIDTH_PX
}

/// How many copies of the text fill the band with one spare, so that moving by one copy loops
/// without a gap; at least two.
pub fn copies_needed(region_width_px: f64, measured_px: f64) -> u32 {
    let segment = item_width_px(measured_px);
    let region = if region_width_px.is_finite() {
        region_width_px.max(0.0)
    } else {
        0.0
    };
    // Bounded: a region wider than any screen still needs few copies.
    let fill = (region / segment).ceil().min(64.0) as u32;
    (fill + 1).max(2)
}

/// Where the band is `elapsed_ms` of running after it started, in pixels, within one copy of a
/// text measured `measured_px` wide: moving left the offset goes from 0 to -width, moving right
/// from -width to 0. A speed that is not a positive number stands the band still.
pub fn offset_px(props: &MarqueeProps, measured_px: f64, elapsed_ms: f64) -> f64 {
    let segment = item_width_px(measured_px);
    let speed = if props.animation_speed.is_finite() && props.animation_speed > 0.0 {
        props.animation_speed
    } else {
        0.0
    };
    let travelled = (BASE_SPEED_PX_PER_S * speed * elapsed_ms.max(0.0) / 1000.0) % segment;
    match props.animation_direction {
        MarqueeDirection::Left => -travelled,
        MarqueeDirection::Right => travelled - segment,
    }
}

/// The wave's vertical offset, in pixels, of what sits `x` pixels along the band, for a text
/// measured `measured_px` wide: waveFrequency whole waves per path segment, waveIntensity times
/// 10 px high. Intensity 0 (the default) is a straight band.
pub fn wave_offset_px(props: &MarqueeProps, measured_px: f64, x_px: f64) -> f64 {
    let intensity = finite_or_zero(props.wave_intensity);
    let frequency = finite_or_zero(props.wave_frequency);
    if intensity == 0.0 || frequency == 0.0 {
        return 0.0;
    }
    let segment = segment_width_px(measured_px);
    let phase = std::f64::consts::TAU * frequency * finite_or_zero(x_px) / segment;
    intensity * WAVE_PX_PER_INTENSITY * phase.sin()
}

fn finite_or_zero(value: f64) -> f64 {
    if value.is_finite() { value } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_held_between_250_and_1000_px() {
        assert_eq!(segment_width_px(10.0), 250.0);
        assert_eq!(segment_width_px(400.0), 400.0);
        assert_eq!(segment_width_px(5000.0), 1000.0);
        assert_eq!(segment_width_px(f64::NAN), 250.0);
        assert_eq!(item_width_px(10.0), 250.0);
        assert_eq!(item_width_px(5000.0), 5000.0);
        assert_eq!(item_width_px(f64::INFINITY), 250.0);
    }

    #[test]
    fn narrow_regions_stand_still() {
        assert!(!region_runs(49.9));
        assert!(region_runs(50.0));
    }

    #[test]
    fn copies_fill_the_band_with_one_spare() {
        assert_eq!(copies_needed(1200.0, 400.0), 4);
        assert_eq!(copies_needed(0.0, 400.0), 2);
        assert_eq!(copies_needed(f64::INFINITY, 400.0), 2);
    }

    #[test]
    fn the_band_moves_its_way_and_loops() {
        let left = MarqueeProps::default();
        assert_eq!(offset_px(&left, 300.0, 0.0), -0.0);
        assert_eq!(offset_px(&left, 300.0, 1000.0), -60.0);
        assert_eq!(offset_px(&left, 300.0, 5000.0), -0.0);
        let right = MarqueeProps {
            animation_direction: MarqueeDirection::Right,
            animation_speed: 2.0,
            ..MarqueeProps::default()
        };
        assert_eq!(offset_px(&right, 300.0, 1000.0), -180.0);
        let stopped = MarqueeProps {
            animation_speed: -1.0,
            ..MarqueeProps::default()
        };
        assert_eq!(offset_px(&stopped, 300.0, 1000.0), -0.0);
    }

    #[test]
    fn the_default_band_is_straight() {
        assert_eq!(wave_offset_px(&MarqueeProps::default(), 400.0, 100.0), 0.0);
        let wavy = MarqueeProps {
            wave_intensity: 1.0,
            ..MarqueeProps::default()
        };
        assert!((wave_offset_px(&wavy, 400.0, 100.0) - 10.0).abs() < 1e-9);
    }
}
