//! The layout breakpoints of 001 §2: mobile up to 432 px, desktop from 433 px, and a tablet
//! breakpoint that exists but is never matched.

/// The widest viewport, in CSS pixels, that still uses the mobile layout.
pub const MOBILE_MAX_WIDTH_PX: u32 = 432;

/// The layout a viewport width selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutBreakpoint {
    Mobile,
    /// Named by the specification but never matched by any width; kept so code that switches
    /// on breakpoints stays exhaustive if a tablet range is ever given.
    Tablet,
    Desktop,
}

impl LayoutBreakpoint {
    /// Classifies a viewport width in CSS pixels.
    pub const fn classify(width_px: u32) -> Self {
        if width_px <= MOBILE_MAX_WIDTH_PX {
            Self::Mobile
        } else {
            Self::Desktop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breakpoint_boundary_is_432_and_433() {
        assert_eq!(LayoutBreakpoint::classify(0), LayoutBreakpoint::Mobile);
        assert_eq!(LayoutBreakpoint::classify(432), LayoutBreakpoint::Mobile);
        assert_eq!(LayoutBreakpoint::classify(433), LayoutBreakpoint::Desktop);
        assert_eq!(
            LayoutBreakpoint::classify(u32::MAX),
            LayoutBreakpoint::Desktop
        );
    }

    #[test]
    fn tablet_is_never_matched() {
        let widths = [0, 320, 432, 433, 768, 1024, 1366, 4096];
        assert!(
            widths
                .iter()
                .all(|&w| LayoutBreakpoint::classify(w) != LayoutBreakpoint::Tablet)
        );
    }
}
