//! The design-to-layout mapping of spec 001 s2 "Gallery layouts".

use serde::{Deserialize, Serialize};

/// How a gallery's slides are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GalleryLayout {
    /// One slide after another, stacked (the `stacked` design and any unknown one).
    Base,
    /// A large slide above a strip of thumbnails (the `slider` design).
    Strip,
    /// Stacked slides that fade or swipe, one at a time.
    Slideshow,
    Grid,
    Autogrid,
    Autocolumns,
    /// Rows of equal height (the autorows constants of 001 s9); a design of this name maps
    /// to it, which the spec's list leaves to "any other value" but whose constants it gives.
    Autorows,
    Carousel,
    List,
}

impl GalleryLayout {
    pub const ALL: [Self; 9] = [
        Self::Base,
        Self::Strip,
        Self::Slideshow,
        Self::Grid,
        Self::Autogrid,
        Self::Autocolumns,
        Self::Autorows,
        Self::Carousel,
        Self::List,
    ];

    /// Spec 001 s2: stacked maps to base, slider to a thumbnail strip, slideshow to a stacked
    /// layout that fades or swipes, the others to themselves, anything else to base. Design
    /// values are compared without case or surrounding space.
    pub fn from_design(design: &str) -> Self {
        match design.trim().to_ascii_lowercase().as_str() {
            "slider" => Self::Strip,
            "slideshow" => Self::Slideshow,
            "grid" => Self::Grid,
            "autogrid" => Self::Autogrid,
            "autocolumns" => Self::Autocolumns,
            "autorows" => Self::Autorows,
            "carousel" => Self::Carousel,
            "list" => Self::List,
            _ => Self::Base,
        }
    }

    /// The layout's name in class names and data attributes.
    pub fn name(self) -> &'static str {
        match self {
            Self::Base => "base",
            Self::Strip => "strip",
            Self::Slideshow => "slideshow",
            Self::Grid => "grid",
            Self::Autogrid => "autogrid",
            Self::Autocolumns => "autocolumns",
            Self::Autorows => "autorows",
            Self::Carousel => "carousel",
            Self::List => "list",
        }
    }

    /// Layouts that show one slide at a time and so have an index to move.
    pub fn shows_one_at_a_time(self) -> bool {
        matches!(self, Self::Strip | Self::Slideshow)
    }

    /// Layouts that scroll sideways by groups or slides.
    pub fn navigates(self) -> bool {
        matches!(self, Self::Strip | Self::Slideshow | Self::Carousel)
    }
}
