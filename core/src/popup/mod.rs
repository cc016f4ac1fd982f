//! The popup overlay: its display rules (000 s4) and the record a browser keeps of it
//! (001 s3).

mod record;
mod rules;

pub use record::{POPUP_RECORD_KEY, PopupRecord};
pub use rules::{DAY_MS, PageSituation, PopupDecision, PopupHideReason, decide};

#[cfg(test)]
mod tests;
