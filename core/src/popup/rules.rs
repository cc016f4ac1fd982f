//! The popup overlay's display rules (000 s4), as one pure decision the server, the core's
//! tests and the browser's island share (the island is tested against vectors generated from
//! this function).

use serde::Serialize;

use crate::site::PopupOverlaySettings;

use super::record::PopupRecord;

/// One day in milliseconds.
pub const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// What the browser knows about the page and visitor when it decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageSituation {
    /// A 404 splash page.
    pub not_found: bool,
    pub lock_screen: bool,
    /// The page URL has `sqsscreenshot=true`.
    pub screenshot: bool,
    pub mobile: bool,
    /// The cookie banner is waiting for a decision: the popup never opens before the consent
    /// decision nor on top of the banner.
    pub banner_pending: bool,
    pub now_ms: i64,
}

/// Why the popup stays closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PopupHideReason {
    StyleNone,
    NotFoundPage,
    LockScreen,
    Screenshot,
    MobileDisabled,
    BannerPending,
    Submitted,
    NeverAgain,
    RecentlyClosed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "decision", content = "reason")]
pub enum PopupDecision {
    Show,
    Hide(PopupHideReason),
}

/// Whether the site has a popup at all: a style of `none` (or no style) switches it off, so
/// pages carry no overlay markup.
pub fn popup_enabled(settings: &PopupOverlaySettings) -> bool {
    let style = settings.style.trim();
    !(style.is_empty() || style.eq_ignore_ascii_case("none"))
}

/// Whether the popup carries its newsletter form, which makes [`super::POPUP_FORM_ID`] a
/// configured form.
pub fn popup_has_newsletter(settings: &PopupOverlaySettings) -> bool {
    popup_enabled(settings) && settings.content.newsletter
}

/// Decides whether the popup opens (000 s4), checking in this order: the style, the page, the
/// screenshot flag, mobile, the banner, then the record. A version above the recorded one
/// shows it again whatever was recorded. After a submission it stays closed when
/// `showUntilSignup` is set. Once closed it comes back `displayFrequency` days later (0 means
/// on the next page); a negative frequency (-1 in the spec) means never again.
pub fn decide(
    settings: &PopupOverlaySettings,
    record: Option<&PopupRecord>,
    page: &PageSituation,
) -> PopupDecision {
    use PopupHideReason::*;
    let hide = PopupDecision::Hide;
    if !popup_enabled(settings) {
        return hide(StyleNone);
    }
    if page.not_found {
        return hide(NotFoundPage);
    }
    if page.lock_screen {
        return hide(LockScreen);
    }
    if page.screenshot {
        return hide(Screenshot);
    }
    if page.mobile && !settings.enable_mobile {
        return hide(MobileDisabled);
    }
    if page.banner_pending {
        return hide(BannerPending);
    }
    let Some(record) = record else {
        return PopupDecision::Show;
    };
    if settings.version > record.version {
        return PopupDecision::Show;
    }
    if settings.show_until_signup && record.submitted {
        return hide(Submitted);
    }
    let Some(closed_at) = record.date_closed else {
        return PopupDecision::Show;
    };
    if settings.display_frequency < 0 {
        return hide(NeverAgain);
    }
    let due =
        closed_at.saturating_add(i64::from(settings.display_frequency).saturating_mul(DAY_MS));
    if page.now_ms >= due {
        PopupDecision::Show
    } else {
        hide(RecentlyClosed)
    }
}
