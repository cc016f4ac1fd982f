//! The animated highlight drawn behind text (001 s3, s4, s9): eleven shapes, three animations,
//! and how long a run takes.

use serde::{Deserialize, Serialize};

/// The shapes of 001 s3, in the specification's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TextEffectShape {
    Circle,
    Cross,
    Enclose,
    Jagged,
    Scribble,
    Strike,
    StrikeDiagonal,
    Underline,
    UnderlineCurve,
    UnderlineDouble,
    Wave,
}

impl TextEffectShape {
    pub const ALL: [Self; 11] = [
        Self::Circle,
        Self::Cross,
        Self::Enclose,
        Self::Jagged,
        Self::Scribble,
        Self::Strike,
        Self::StrikeDiagonal,
        Self::Underline,
        Self::UnderlineCurve,
        Self::UnderlineDouble,
        Self::Wave,
    ];

    /// The name used in bundles, markup and the island (`strikeDiagonal`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Circle => "circle",
            Self::Cross => "cross",
            Self::Enclose => "enclose",
            Self::Jagged => "jagged",
            Self::Scribble => "scribble",
            Self::Strike => "strike",
            Self::StrikeDiagonal => "strikeDiagonal",
            Self::Underline => "underline",
            Self::UnderlineCurve => "underlineCurve",
            Self::UnderlineDouble => "underlineDouble",
            Self::Wave => "wave",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|shape| shape.name() == name)
    }
}

/// How the highlight appears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TextEffectAnimation {
    /// The stroke is drawn along its path.
    Draw,
    /// The highlight fades in.
    Fade,
    /// The highlight fades in while growing from half size.
    FadeScale,
}

impl TextEffectAnimation {
    pub const ALL: [Self; 3] = [Self::Draw, Self::Fade, Self::FadeScale];

    pub fn name(self) -> &'static str {
        match self {
            Self::Draw => "draw",
            Self::Fade => "fade",
            Self::FadeScale => "fadeScale",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|animation| animation.name() == name)
    }
}

/// Which way a drawn stroke travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextEffectDirection {
    Left,
    Right,
}

impl TextEffectDirection {
    pub fn name(self) -> &'static str {
        match self {
            Self::Left => "left",
            Self::Right => "right",
        }
    }
}

/// The stroke's line ends (SVG `stroke-linecap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TextEffectLinecap {
    Butt,
    Round,
    Square,
}

impl TextEffectLinecap {
    pub fn name(self) -> &'static str {
        match self {
            Self::Butt => "butt",
            Self::Round => "round",
            Self::Square => "square",
        }
    }
}

/// The box every shape is drawn in; the SVG stretches it over the highlighted words
/// (`preserveAspectRatio="none"`, strokes kept at their width by `vector-effect`).
pub const VIEW_BOX: &str = "0 0 200 40";

impl TextEffectShape {
    /// The shape's strokes as SVG path data in [`VIEW_BOX`], each drawn from the left end so
    /// that a draw to the right starts where reading starts. The server writes them into the
    /// page (the highlight shows without JavaScript) and the island animates them.
    pub fn paths(self) -> &'static [&'static str] {
        match self {
            Self::Circle => {
                &["M100 3C160 2 198 10 196 21C194 33 150 38 100 37C45 37 3 32 4 20C5 8 48 3 106 6"]
            }
            Self::Cross => &["M4 4L196 36", "M4 36L196 4"],
            Self::Enclose => &["M3 3H197V37H3Z"],
            Self::Jagged => {
                &["M2 34L20 28L38 36L56 28L74 36L92 28L110 36L128 28L146 36L164 28L182 36L198 30"]
            }
            Self::Scribble => &["M4 30C40 10 60 38 90 22C120 8 130 36 160 20C180 10 190 30 196 24"],
            Self::Strike => &["M2 22L198 20"],
            Self::StrikeDiagonal => &["M4 36L196 4"],
            Self::Underline => &["M2 36H198"],
            Self::UnderlineCurve => &["M2 34Q100 42 198 30"],
            Self::UnderlineDouble => &["M2 33H198", "M8 38H192"],
            Self::Wave => &["M2 35Q14 29 26 35T50 35T74 35T98 35T122 35T146 35T170 35T194 35"],
        }
    }
}

/// A text effect's settings, with the defaults of 001 s3.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TextEffect {
    pub shape: TextEffectShape,
    pub animation: TextEffectAnimation,
    pub direction: TextEffectDirection,
    pub linecap: TextEffectLinecap,
    /// The set duration of a full run, in seconds.
    pub duration_s: f64,
}

impl Default for TextEffect {
    fn default() -> Self {
        Self {
            shape: TextEffectShape::Wave,
            animation: TextEffectAnimation::Draw,
            direction: TextEffectDirection::Right,
            linecap: TextEffectLinecap::Square,
            duration_s: DEFAULT_DURATION_S,
        }
    }
}

/// The default duration of a run (001 s3).
pub const DEFAULT_DURATION_S: f64 = 0.75;
/// The longest duration a bundle may set: longer runs read as a page that is still loading.
pub const MAX_DURATION_S: f64 = 10.0;
/// The first play waits this long after the island is ready (001 s4).
pub const FIRST_PLAY_DELAY_MS: u32 = 250;
/// A reflow of the text redraws the shape after this quiet period (001 s9).
pub const MUTATION_DEBOUNCE_MS: u32 = 10;
/// How often the page-wide animation switch is checked (001 s9).
pub const GLOBAL_ANIMATION_WATCH_MS: u32 = 2000;
/// fadeScale grows from this fraction of full size (001 s4).
pub const FADE_SCALE_FROM: f64 = 0.5;
/// A run never takes less than this share of the set duration, however short the way (001 s4).
pub const MIN_DURATION_SHARE: f64 = 0.2;

/// Where a draw starts: the stroke undrawn, at progress -1 for direction right and 1 otherwise
/// (001 s4); 0 is fully drawn.
pub fn draw_start_progress(direction: TextEffectDirection) -> f64 {
    match direction {
        TextEffectDirection::Right => -1.0,
        TextEffectDirection::Left => 1.0,
    }
}

/// How long a run takes when it has `distance` of a full run left to travel (1 is a whole run,
/// as from undrawn to drawn; a run restarted half way has 0.5 left): the set duration scaled by
/// the distance, between 0.2 and 1 of the set duration (001 s4). A distance that is not a
/// number counts as a full run.
pub fn scaled_duration_s(set_duration_s: f64, distance: f64) -> f64 {
    let share = if distance.is_nan() {
        1.0
    } else {
        distance.abs().clamp(MIN_DURATION_SHARE, 1.0)
    };
    set_duration_s * share
}

/// A bundle's duration, refused when it is not a positive number of seconds up to the maximum.
pub fn checked_duration_s(duration_s: f64) -> Option<f64> {
    (duration_s.is_finite() && duration_s > 0.0 && duration_s <= MAX_DURATION_S)
        .then_some(duration_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_specifications() {
        let effect = TextEffect::default();
        assert_eq!(effect.animation, TextEffectAnimation::Draw);
        assert_eq!(effect.duration_s, 0.75);
        assert_eq!(effect.direction, TextEffectDirection::Right);
        assert_eq!(effect.shape, TextEffectShape::Wave);
        assert_eq!(effect.linecap, TextEffectLinecap::Square);
    }

    #[test]
    fn names_round_trip() {
        for shape in TextEffectShape::ALL {
            assert_eq!(TextEffectShape::from_name(shape.name()), Some(shape));
            let json = serde_json::to_string(&shape).unwrap();
            assert_eq!(json, format!("\"{}\"", shape.name()));
        }
        for animation in TextEffectAnimation::ALL {
            assert_eq!(
                TextEffectAnimation::from_name(animation.name()),
                Some(animation)
            );
        }
        assert_eq!(TextEffectShape::from_name("Wave"), None);
    }

    #[test]
    fn duration_is_scaled_by_distance_and_clamped() {
        assert_eq!(scaled_duration_s(0.75, 1.0), 0.75);
        assert_eq!(scaled_duration_s(1.0, 0.5), 0.5);
        assert_eq!(scaled_duration_s(1.0, 0.1), 0.2);
        assert_eq!(scaled_duration_s(1.0, 0.0), 0.2);
        assert_eq!(scaled_duration_s(1.0, 3.0), 1.0);
        assert_eq!(scaled_duration_s(1.0, -0.5), 0.5);
        assert_eq!(scaled_duration_s(1.0, f64::NAN), 1.0);
    }

    #[test]
    fn draw_starts_undrawn_on_the_side_it_comes_from() {
        assert_eq!(draw_start_progress(TextEffectDirection::Right), -1.0);
        assert_eq!(draw_start_progress(TextEffectDirection::Left), 1.0);
    }

    #[test]
    fn bundle_durations_are_checked() {
        assert_eq!(checked_duration_s(0.75), Some(0.75));
        assert_eq!(checked_duration_s(0.0), None);
        assert_eq!(checked_duration_s(-1.0), None);
        assert_eq!(checked_duration_s(f64::INFINITY), None);
        assert_eq!(checked_duration_s(11.0), None);
    }
}
