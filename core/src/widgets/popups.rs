//! Confirmation, alert and information popups (001 s2, s4, s9): which answers each offers and
//! when one hides by itself.

use serde::{Deserialize, Serialize};

/// An information popup hides by itself after this long (001 s9).
pub const INFORMATION_AUTO_HIDE_MS: u32 = 2000;
/// The popup's width and padding in pixels.
pub const WIDTH_PX: u32 = 350;
pub const PADDING_PX: u32 = 20;
/// A hide whose transition never reports its end completes after this long.
pub const HIDE_FALLBACK_MS: u32 = 600;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PopupKind {
    /// Asks a question: confirm or reject.
    Confirmation,
    /// Says something that needs acknowledging: one confirm button.
    Alert,
    /// Says something in passing: no buttons, hides by itself.
    Information,
}

/// How a popup was hidden (001 s4): a button's answer, or a dismissal (Escape, a click on the
/// overlay, the close button or the timer), which counts as cancel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PopupResponse {
    Confirm,
    Reject,
    Cancel,
}

impl PopupKind {
    pub const ALL: [Self; 3] = [Self::Confirmation, Self::Alert, Self::Information];

    /// The answer buttons the popup shows, in order.
    pub fn buttons(self) -> &'static [PopupResponse] {
        match self {
            Self::Confirmation => &[PopupResponse::Reject, PopupResponse::Confirm],
            Self::Alert => &[PopupResponse::Confirm],
            Self::Information => &[],
        }
    }

    /// When the popup hides by itself: the timer the caller set, or for an information popup
    /// 2000 ms when none was set. A timer of 0 means none.
    pub fn auto_hide_ms(self, timer_ms: Option<u32>) -> Option<u32> {
        match (self, timer_ms.filter(|&ms| ms > 0)) {
            (_, Some(ms)) => Some(ms),
            (Self::Information, None) => Some(INFORMATION_AUTO_HIDE_MS),
            (_, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_information_hides_by_itself_unless_timed() {
        assert_eq!(PopupKind::Information.auto_hide_ms(None), Some(2000));
        assert_eq!(PopupKind::Information.auto_hide_ms(Some(0)), Some(2000));
        assert_eq!(PopupKind::Information.auto_hide_ms(Some(500)), Some(500));
        assert_eq!(PopupKind::Alert.auto_hide_ms(None), None);
        assert_eq!(PopupKind::Confirmation.auto_hide_ms(Some(3000)), Some(3000));
    }

    #[test]
    fn each_kind_offers_its_answers() {
        assert_eq!(
            PopupKind::Confirmation.buttons(),
            [PopupResponse::Reject, PopupResponse::Confirm]
        );
        assert_eq!(PopupKind::Alert.buttons(), [PopupResponse::Confirm]);
        assert!(PopupKind::Information.buttons().is_empty());
    }
}
