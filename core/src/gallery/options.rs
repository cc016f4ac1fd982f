//! A gallery's options (spec 001 s3 "Gallery slide and options") and the defaults of 001 s9
//! each layout falls back on.

use serde::{Deserialize, Serialize};

use super::constants::*;
use super::{GalleryLayout, Transition};

/// What a site owner may set on a gallery block beyond its design, lightbox and autoplay.
/// Every field is optional: an absent one takes its layout's default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GalleryOptions {
    pub slides_per_row: Option<u8>,
    /// Autocolumns and autogrid: the width a column aims at, in px (greater than 0).
    pub column_width: Option<u16>,
    pub gutter: Option<u16>,
    /// Autorows: the height of a row, in px.
    pub row_height: Option<u16>,
    /// Width over height in percent (slider default 50); none means each image's own ratio
    /// (the spec's `Auto`).
    pub aspect_ratio: Option<u16>,
    pub lightbox_theme: LightboxTheme,
    /// Seconds between slides when autoplay is on.
    pub autoplay_duration: Option<u32>,
    pub transition: Transition,
    /// Whether next after the last slide wraps to the first.
    #[serde(rename = "loop")]
    pub looping: Option<bool>,
    /// Whether the current slide's id goes into the address as `itemId`.
    pub history: bool,
    pub strip_alignment: StripAlignment,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LightboxTheme {
    #[default]
    Dark,
    Light,
}

/// Where the thumbnail strip aligns its active thumbnail (001 s5; default middle).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StripAlignment {
    Start,
    #[default]
    Middle,
    End,
}

impl StripAlignment {
    pub fn parse(value: &str) -> Result<Self, GalleryOptionsError> {
        match value {
            "start" => Ok(Self::Start),
            "middle" => Ok(Self::Middle),
            "end" => Ok(Self::End),
            other => Err(GalleryOptionsError::StripAlignment(other.to_owned())),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GalleryOptionsError {
    #[error("columnWidth must be a number greater than 0, found '{0}'")]
    ColumnWidth(String),
    #[error("strip alignment must be start, middle or end, found '{0}'")]
    StripAlignment(String),
    #[error("autoplay-duration must be at least 1 second")]
    AutoplayDuration,
    #[error("slidesPerRow must be between 1 and 12")]
    SlidesPerRow,
}

/// 001 s5: columnWidth must be a number greater than 0; strings are parsed as integers
/// (leading digits count, as `parseInt` reads them).
pub fn parse_column_width(value: &str) -> Result<u16, GalleryOptionsError> {
    let digits: String = value
        .trim()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    match digits.parse::<u16>() {
        Ok(width) if width > 0 => Ok(width),
        _ => Err(GalleryOptionsError::ColumnWidth(value.to_owned())),
    }
}

impl GalleryOptions {
    /// Refuses values the layouts cannot use.
    pub fn validate(&self) -> Result<(), GalleryOptionsError> {
        if self.column_width == Some(0) {
            return Err(GalleryOptionsError::ColumnWidth("0".to_owned()));
        }
        if self.autoplay_duration == Some(0) {
            return Err(GalleryOptionsError::AutoplayDuration);
        }
        if self.slides_per_row.is_some_and(|n| n == 0 || n > 12) {
            return Err(GalleryOptionsError::SlidesPerRow);
        }
        Ok(())
    }

    /// The options with every default of the layout filled in.
    pub fn resolve(&self, layout: GalleryLayout, autoplay: bool) -> ResolvedGallery {
        let (slides_per_row, gutter) = match layout {
            GalleryLayout::Carousel => (CAROUSEL_SLIDES_PER_ROW, CAROUSEL_GUTTER),
            GalleryLayout::Autogrid | GalleryLayout::Autocolumns => (1, AUTO_GUTTER),
            GalleryLayout::Autorows => (1, AUTOROWS_GUTTER),
            GalleryLayout::Grid => (GRID_SLIDES_PER_ROW, AUTO_GUTTER),
            _ => (1, AUTO_GUTTER),
        };
        let aspect_ratio = match layout {
            GalleryLayout::Strip => {
                Some(self.aspect_ratio.unwrap_or(u16::from(SLIDER_ASPECT_RATIO)))
            }
            _ => self.aspect_ratio,
        };
        let speed_ms = match layout {
            GalleryLayout::Strip => STRIP_SPEED_MS,
            _ => STACKED_SPEED_MS,
        };
        ResolvedGallery {
            layout,
            slides_per_row: self.slides_per_row.unwrap_or(slides_per_row),
            column_width: self.column_width.unwrap_or(AUTO_COLUMN_WIDTH),
            gutter: self.gutter.unwrap_or(gutter),
            row_height: self.row_height.unwrap_or(AUTOROWS_ROW_HEIGHT),
            aspect_ratio,
            autoplay_ms: (autoplay && layout.navigates()).then(|| {
                self.autoplay_duration
                    .map_or(AUTOPLAY_TIMEOUT_MS, |seconds| seconds.saturating_mul(1000))
            }),
            speed_ms,
            preload: STACKED_PRELOAD,
            transition: self.transition,
            // Galleries loop unless told otherwise; a carousel moves by clamped groups.
            looping: self.looping.unwrap_or(layout != GalleryLayout::Carousel),
            history: self.history,
            lightbox_theme: self.lightbox_theme,
            strip_alignment: self.strip_alignment,
        }
    }
}

/// A gallery's options with every default applied: what the page and its island use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedGallery {
    pub layout: GalleryLayout,
    pub slides_per_row: u8,
    pub column_width: u16,
    pub gutter: u16,
    pub row_height: u16,
    pub aspect_ratio: Option<u16>,
    /// None when autoplay is off or the layout has nothing to advance.
    pub autoplay_ms: Option<u32>,
    pub speed_ms: u32,
    pub preload: u32,
    pub transition: Transition,
    #[serde(rename = "loop")]
    pub looping: bool,
    pub history: bool,
    pub lightbox_theme: LightboxTheme,
    pub strip_alignment: StripAlignment,
}
