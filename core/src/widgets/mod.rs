//! The display widgets of 001 s2-s4, s8 and s9 as rules and constants, apart from any browser:
//! the text effect (shapes, animations, duration scaling), the marquee's band geometry, the
//! tooltip's placement, the confirmation, alert and information popups, and the timing helpers
//! (throttle, wait-for-element). The web islands run these rules through generated vectors
//! (`cargo xtask codegen`), so the two sides cannot drift.

pub mod marquee;
pub mod popups;
pub mod text_effect;
pub mod timing;
pub mod tooltip;
pub mod vectors;

pub use marquee::{MARQUEE_ENVIRONMENT_NOT_READY, MARQUEE_NO_WINDOW};
pub use popups::{PopupKind, PopupResponse};
pub use text_effect::{
    TextEffect, TextEffectAnimation, TextEffectDirection, TextEffectLinecap, TextEffectShape,
};
