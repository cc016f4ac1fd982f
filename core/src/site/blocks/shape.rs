//! The shape block (type 71): one of the named decorative shapes, filled with a colour, with an
//! optional drop shadow (001 s3: `data-shape-name`, `data-drop-shadow` as JSON with angle,
//! distance and blur, sizes 100, 150 or 67 depending on the shape).

use serde::{Deserialize, Serialize};

/// The named shapes. The specification names a few of them (arched-window, circle, flower) and
/// says the lists exist without showing them; these are the ones a site owner reaches for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShapeName {
    Circle,
    Square,
    RoundedSquare,
    Triangle,
    Diamond,
    Hexagon,
    Star,
    Flower,
    Heart,
    ArchedWindow,
    TallOval,
    Oval,
    Pill,
}

impl ShapeName {
    pub const ALL: [Self; 13] = [
        Self::Circle,
        Self::Square,
        Self::RoundedSquare,
        Self::Triangle,
        Self::Diamond,
        Self::Hexagon,
        Self::Star,
        Self::Flower,
        Self::Heart,
        Self::ArchedWindow,
        Self::TallOval,
        Self::Oval,
        Self::Pill,
    ];

    /// The name written in `data-shape-name` and in a bundle.
    pub fn name(self) -> &'static str {
        match self {
            Self::Circle => "circle",
            Self::Square => "square",
            Self::RoundedSquare => "rounded-square",
            Self::Triangle => "triangle",
            Self::Diamond => "diamond",
            Self::Hexagon => "hexagon",
            Self::Star => "star",
            Self::Flower => "flower",
            Self::Heart => "heart",
            Self::ArchedWindow => "arched-window",
            Self::TallOval => "tall-oval",
            Self::Oval => "oval",
            Self::Pill => "pill",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|shape| shape.name() == name)
    }

    /// The shape's size of 001 s3, read as the width of its drawing for a height of 100: 100
    /// for the shapes as wide as they are tall, 150 for the wide ones, 67 for the tall ones.
    pub fn size(self) -> u16 {
        match self {
            Self::ArchedWindow | Self::TallOval => 67,
            Self::Oval | Self::Pill => 150,
            _ => 100,
        }
    }

    /// The outline as an SVG path in a view box of `size()` by 100.
    pub fn path(self) -> &'static str {
        match self {
            Self::Circle => "M50 0A50 50 0 1 1 50 100A50 50 0 1 1 50 0Z",
            Self::Square => "M0 0H100V100H0Z",
            Self::RoundedSquare => {
                "M16 0H84Q100 0 100 16V84Q100 100 84 100H16Q0 100 0 84V16Q0 0 16 0Z"
            }
            Self::Triangle => "M50 0L100 100H0Z",
            Self::Diamond => "M50 0L100 50L50 100L0 50Z",
            Self::Hexagon => "M25 3L75 3L100 50L75 97L25 97L0 50Z",
            Self::Star => "M50 0L62 36L100 38L70 60L81 96L50 75L19 96L30 60L0 38L38 36Z",
            Self::Flower => {
                "M50 0C64 0 70 14 68 26C79 18 95 20 99 34C103 48 90 57 78 60C89 68 92 84 80 93C68 101 55 94 50 82C45 94 32 101 20 93C8 84 11 68 22 60C10 57 -3 48 1 34C5 20 21 18 32 26C30 14 36 0 50 0Z"
            }
            Self::Heart => {
                "M50 94L8 52C-4 40 -2 18 14 10C28 3 42 9 50 22C58 9 72 3 86 10C102 18 104 40 92 52Z"
            }
            Self::ArchedWindow => "M0 33.5A33.5 33.5 0 0 1 67 33.5V100H0Z",
            Self::TallOval => "M33.5 0A33.5 50 0 1 1 33.5 100A33.5 50 0 1 1 33.5 0Z",
            Self::Oval => "M75 0A75 50 0 1 1 75 100A75 50 0 1 1 75 0Z",
            Self::Pill => "M50 0H100A50 50 0 0 1 100 100H50A50 50 0 0 1 50 0Z",
        }
    }
}

/// A length of a drop shadow, with its unit as written.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ShadowLength {
    pub value: f64,
    pub unit: ShadowUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShadowUnit {
    Px,
    Em,
    Rem,
}

/// Pixels per `em` or `rem` where a shadow is drawn inside the shape's own SVG: the browser's
/// default font size, since an SVG filter has no font size of its own.
const PX_PER_EM: f64 = 16.0;
/// The longest shadow distance and the widest blur, in pixels.
pub const MAX_SHADOW_PX: f64 = 100.0;

impl ShadowLength {
    pub fn px(self) -> f64 {
        match self.unit {
            ShadowUnit::Px => self.value,
            ShadowUnit::Em | ShadowUnit::Rem => self.value * PX_PER_EM,
        }
    }
}

/// The drop shadow of 001 s3: `angle` in degrees, clockwise from pointing right.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DropShadow {
    pub angle: f64,
    pub distance: ShadowLength,
    pub blur: ShadowLength,
}

impl DropShadow {
    /// The shadow's offset in pixels, rounded to hundredths so the markup stays stable.
    pub fn offset(&self) -> (f64, f64) {
        let radians = self.angle.to_radians();
        let distance = self.distance.px();
        let round = |value: f64| (value * 100.0).round() / 100.0 + 0.0;
        (
            round(distance * radians.cos()),
            round(distance * radians.sin()),
        )
    }
}

/// A shape block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShapeBlock {
    pub shape: ShapeName,
    /// A colour as `#rgb` or `#rrggbb`; without one the shape takes the text colour.
    pub color: Option<String>,
    pub drop_shadow: Option<DropShadow>,
    /// What the shape means to someone who cannot see it; without one it is decoration.
    pub label: Option<String>,
}

/// Why a shape block was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShapeBlockError {
    #[error("expected a colour such as #c0ffee or #abc, found '{0}'")]
    Color(String),
    #[error("expected an angle from 0 to 360 degrees, found {0}")]
    Angle(f64),
    #[error("expected a {what} from 0 to {MAX_SHADOW_PX} px, found {value} {unit}")]
    Length {
        what: &'static str,
        value: f64,
        unit: &'static str,
    },
}

impl ShapeBlock {
    pub fn check(&self) -> Result<(), ShapeBlockError> {
        if let Some(color) = &self.color
            && !is_hex_color(color)
        {
            return Err(ShapeBlockError::Color(color.clone()));
        }
        if let Some(shadow) = &self.drop_shadow {
            if !(0.0..=360.0).contains(&shadow.angle) {
                return Err(ShapeBlockError::Angle(shadow.angle));
            }
            for (what, length) in [("distance", shadow.distance), ("blur", shadow.blur)] {
                if !(0.0..=MAX_SHADOW_PX).contains(&length.px()) {
                    return Err(ShapeBlockError::Length {
                        what,
                        value: length.value,
                        unit: match length.unit {
                            ShadowUnit::Px => "px",
                            ShadowUnit::Em => "em",
                            ShadowUnit::Rem => "rem",
                        },
                    });
                }
            }
        }
        Ok(())
    }
}

fn is_hex_color(color: &str) -> bool {
    color
        .strip_prefix('#')
        .is_some_and(|hex| matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shadow(angle: f64, distance: f64, unit: ShadowUnit) -> DropShadow {
        DropShadow {
            angle,
            distance: ShadowLength {
                value: distance,
                unit,
            },
            blur: ShadowLength {
                value: 4.0,
                unit: ShadowUnit::Px,
            },
        }
    }

    #[test]
    fn every_shape_has_one_of_the_three_sizes_and_a_name_that_parses_back() {
        for shape in ShapeName::ALL {
            assert!([100, 150, 67].contains(&shape.size()), "{shape:?}");
            assert_eq!(ShapeName::parse(shape.name()), Some(shape));
            assert!(shape.path().starts_with('M') && shape.path().ends_with('Z'));
        }
        assert_eq!(
            ShapeName::parse("arched-window").map(ShapeName::size),
            Some(67)
        );
        assert_eq!(ShapeName::parse("flower").map(ShapeName::size), Some(100));
        assert_eq!(ShapeName::parse("pill").map(ShapeName::size), Some(150));
        assert_eq!(ShapeName::parse("blob"), None);
    }

    #[test]
    fn a_shadow_points_along_its_angle() {
        assert_eq!(shadow(0.0, 10.0, ShadowUnit::Px).offset(), (10.0, 0.0));
        assert_eq!(shadow(90.0, 10.0, ShadowUnit::Px).offset(), (0.0, 10.0));
        assert_eq!(shadow(180.0, 1.0, ShadowUnit::Em).offset(), (-16.0, 0.0));
    }

    #[test]
    fn bad_colours_angles_and_lengths_are_refused_with_what_was_found() {
        let block = |color: Option<&str>, drop_shadow| ShapeBlock {
            shape: ShapeName::Circle,
            color: color.map(str::to_owned),
            drop_shadow,
            label: None,
        };
        assert_eq!(
            block(Some("#abc"), Some(shadow(45.0, 8.0, ShadowUnit::Px))).check(),
            Ok(())
        );
        assert_eq!(
            block(Some("red"), None).check().unwrap_err().to_string(),
            "expected a colour such as #c0ffee or #abc, found 'red'"
        );
        assert_eq!(
            block(None, Some(shadow(400.0, 8.0, ShadowUnit::Px))).check(),
            Err(ShapeBlockError::Angle(400.0))
        );
        assert_eq!(
            block(None, Some(shadow(0.0, 7.0, ShadowUnit::Rem)))
                .check()
                .unwrap_err()
                .to_string(),
            "expected a distance from 0 to 100 px, found 7 rem"
        );
    }
}
