//! The tooltip (001 s2, s9): its timing and where it is placed so that it stays on screen.

/// A pointer resting on the target shows the tooltip after this long (001 s9).
pub const SHOW_DELAY_MS: u32 = 1200;
/// The tooltip's width in pixels (narrower only when the viewport is).
pub const WIDTH_PX: f64 = 250.0;
/// Distance from the pointer (or the focused element) to the tooltip.
pub const CURSOR_OFFSET_PX: f64 = 15.0;
/// The tooltip keeps this far from every edge of the viewport.
pub const EDGE_MARGIN_PX: f64 = 20.0;
/// Fade in and out, in seconds.
pub const FADE_S: f64 = 0.3;
/// Long text shrinks down to this font size, in pixels, before it wraps further.
pub const MIN_FONT_SIZE_PX: f64 = 11.0;

/// The tooltip's width in a viewport `viewport_width` wide: 250 px, or the viewport less its
/// two edge margins when that is narrower (never negative).
pub fn width_px(viewport_width: f64) -> f64 {
    WIDTH_PX.min(viewport_width - 2.0 * EDGE_MARGIN_PX).max(0.0)
}

/// The tooltip's top-left corner for an anchor point (the pointer, or the bottom-left corner of
/// a focused element): 15 px right of and below the anchor; flipped to the other side of the
/// anchor where it would cross the edge margin, and in the end held inside the margins. A
/// viewport too small for the tooltip puts it at the top-left margin.
pub fn position(anchor: (f64, f64), viewport: (f64, f64), tooltip_height: f64) -> (f64, f64) {
    let width = width_px(viewport.0);
    (
        place_on_axis(anchor.0, viewport.0, width),
        place_on_axis(anchor.1, viewport.1, tooltip_height.max(0.0)),
    )
}

fn place_on_axis(anchor: f64, viewport: f64, size: f64) -> f64 {
    let anchor = if anchor.is_finite() { anchor } else { 0.0 };
    let low = EDGE_MARGIN_PX;
    let high = viewport - EDGE_MARGIN_PX - size;
    let after = anchor + CURSOR_OFFSET_PX;
    let wanted = if after <= high {
        after
    } else {
        anchor - CURSOR_OFFSET_PX - size
    };
    if high < low {
        low
    } else {
        wanted.clamp(low, high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sits_below_right_of_the_pointer() {
        assert_eq!(
            position((100.0, 100.0), (1280.0, 800.0), 40.0),
            (115.0, 115.0)
        );
    }

    #[test]
    fn flips_near_the_right_and_bottom_edges() {
        assert_eq!(
            position((1200.0, 780.0), (1280.0, 800.0), 40.0),
            (1200.0 - 15.0 - 250.0, 780.0 - 15.0 - 40.0)
        );
    }

    #[test]
    fn stays_inside_the_margins_on_a_phone() {
        let (x, y) = position((300.0, 10.0), (320.0, 640.0), 60.0);
        assert_eq!(width_px(320.0), 250.0);
        assert_eq!(x, 35.0);
        assert_eq!(y, 25.0);
        assert_eq!(width_px(200.0), 160.0);
        assert_eq!(position((5.0, 5.0), (30.0, 30.0), 60.0), (20.0, 20.0));
    }
}
