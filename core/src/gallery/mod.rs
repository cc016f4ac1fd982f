//! Galleries (spec 001 s2-s5, s9): how a block's design maps to a layout, each layout's
//! options and defaults, the slide index as a state machine, which slides to preload, the
//! carousel's rows and groups, and how a touch is classified. The browser island follows the
//! same rules through decision vectors generated from these functions.

mod carousel;
mod gesture;
mod index;
mod layout;
mod options;
mod preload;
mod transition;
mod video;

pub use carousel::{CarouselControls, carousel_controls, clamp_group, slides_per_row_for_width};
pub use gesture::{Axis, Gesture, TouchTrack, axis_lock, classify_touch, swipe_duration_ms};
pub use index::{GalleryIndex, IndexEvent, IndexRefusal, LinkedGalleries};
pub use layout::GalleryLayout;
pub use options::{
    GalleryOptions, GalleryOptionsError, LightboxTheme, ResolvedGallery, StripAlignment,
    parse_column_width,
};
pub use preload::preload_window;
pub use transition::{Transition, TransitionError};
pub use video::{
    CUSTOM_THUMBNAIL_NEEDS_EMBED, VIMEO_BASIC_UNSUPPORTED, VideoEmbed, VideoMode, VideoProvider,
};

/// Spec 001 s9 "Gallery" and "Lightbox" constants, in the units the code uses.
pub mod constants {
    /// Autoplay advances every 5 s unless `autoplay-duration` says otherwise (the gallery
    /// state's reading of the two the spec gives; the 1000 ms one belongs to another widget).
    pub const AUTOPLAY_TIMEOUT_MS: u32 = 5_000;
    pub const CAROUSEL_SLIDES_PER_ROW: u8 = 3;
    pub const CAROUSEL_GUTTER: u16 = 1;
    pub const AUTO_COLUMN_WIDTH: u16 = 250;
    pub const AUTO_GUTTER: u16 = 0;
    pub const AUTOROWS_ROW_HEIGHT: u16 = 250;
    pub const AUTOROWS_GUTTER: u16 = 20;
    pub const GRID_SLIDES_PER_ROW: u8 = 4;
    pub const STRIP_SPEED_MS: u32 = 500;
    pub const STACKED_SPEED_MS: u32 = 1_000;
    pub const STACKED_PRELOAD: u32 = 1;
    /// Ken-burns zoom, in thousandths (1.075).
    pub const KEN_BURNS_ZOOM_PERMILLE: u32 = 1_075;
    pub const SLIDER_ASPECT_RATIO: u8 = 50;
    pub const THUMBNAIL_PADDING_CAP: u8 = 5;
    pub const RESIZE_DEBOUNCE_MS: u32 = 100;
    pub const GLOBAL_RESIZE_DEBOUNCE_MS: u32 = 150;
    pub const RESIZE_TIMEOUT_MS: u32 = 300;
    pub const SCROLL_OFFSET: u32 = 30;
    pub const SCROLL_TWEEN_MIN_MS: u32 = 50;

    pub const SWIPE_DISTANCE_PX: f64 = 50.0;
    pub const SWIPE_TIME_MS: f64 = 250.0;
    pub const TAP_MAX_MOVE_PX: f64 = 1.0;
    pub const AXIS_LOCK_PX: f64 = 10.0;
    /// Screens narrower than this get the shorter swipe durations.
    pub const SWIPE_NARROW_BELOW_PX: u32 = 767;
    pub const SWIPE_NARROW_MS: (u32, u32) = (200, 400);
    pub const SWIPE_WIDE_MS: (u32, u32) = (300, 500);

    /// Carousel rows shrink on narrow windows (001 s4 "Carousel").
    pub const CAROUSEL_NARROW_BELOW_PX: u32 = 480;
    pub const CAROUSEL_MEDIUM_BELOW_PX: u32 = 724;

    pub const LIGHTBOX_ANIMATION_MS: u32 = 600;
    /// Overlay opacity, in hundredths (0.95).
    pub const LIGHTBOX_OVERLAY_OPACITY_PERCENT: u32 = 95;
    pub const LIGHTBOX_OVERLAY_FADE_MS: u32 = 300;
    pub const LIGHTBOX_KEY_THROTTLE_MS: u32 = 200;
    pub const LIGHTBOX_EDGE_DEAD_ZONE_PERCENT: u32 = 2;
    pub const LIGHTBOX_ARROW_FADE_MS: u32 = 500;

    pub const VIDEO_FADE_MS: u32 = 1_000;
    /// Default padding ratio of a video frame, in tenths of a percent (56.3 %).
    pub const VIDEO_PADDING_PERMILLE: u32 = 563;
    /// Mobile is at most 432 px wide (001 s2 "Layout breakpoints").
    pub const MOBILE_MAX_WIDTH_PX: u32 = 432;
}

#[cfg(test)]
mod tests;
