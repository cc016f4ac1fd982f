//! The popup overlay: its display rules (000 s4) and the record a browser keeps of it
//! (001 s3).

mod record;
mod rules;

pub use record::{POPUP_RECORD_KEY, PopupRecord};
/// The form id of the popup overlay's newsletter form: the overlay is site-wide, not a block,
/// so it has no block id to lend its form. Forms on pages are looked up first, so a block that
/// happens to use this id keeps its own form.
pub const POPUP_FORM_ID: &str = "popup-overlay";

pub use rules::{
    DAY_MS, PageSituation, PopupDecision, PopupHideReason, decide, popup_enabled,
    popup_has_newsletter,
};

#[cfg(test)]
mod tests;
