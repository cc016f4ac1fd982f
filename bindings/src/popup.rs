//! The popup overlay's display rules (000 s4) with the record the app keeps of it (001 s3). The
//! app supplies the time and the storage through foreign traits; the decision is the core's.

use std::sync::Arc;

use vitrine_core::popup::{self, PageSituation, PopupRecord};
use vitrine_core::site::PopupOverlaySettings;

use crate::mirror::mirror_enum;

/// The app's clock. Implemented by the app (Kotlin, Swift, TypeScript), so the rules never read
/// the time themselves.
#[uniffi::export(with_foreign)]
pub trait Clock: Send + Sync {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> i64;
}

/// Where the app keeps the popup record between launches (the web keeps it in local storage
/// under [`popup_record_key`]). The record is an opaque JSON text to the app.
#[uniffi::export(with_foreign)]
pub trait PopupRecordStorage: Send + Sync {
    /// The stored record, or nothing when none was saved.
    fn load(&self) -> Option<String>;
    fn save(&self, record: String);
}

/// The site's popup settings (000 s3).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PopupSettings {
    /// `none` switches the popup off.
    pub style: String,
    pub version: u32,
    pub show_until_signup: bool,
    /// Days before a closed popup comes back; 0 is the next page, -1 never again.
    pub display_frequency: i32,
    pub enable_mobile: bool,
}

/// What the app knows about the page it is about to show the popup on.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PopupPage {
    pub not_found: bool,
    pub lock_screen: bool,
    pub screenshot: bool,
    pub mobile: bool,
    pub banner_pending: bool,
}

mirror_enum! {
    /// Why the popup stays closed.
    PopupHideReason => popup::PopupHideReason {
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum PopupDecision {
    Show,
    Hide { reason: PopupHideReason },
}

impl From<popup::PopupDecision> for PopupDecision {
    fn from(decision: popup::PopupDecision) -> Self {
        match decision {
            popup::PopupDecision::Show => Self::Show,
            popup::PopupDecision::Hide(reason) => Self::Hide {
                reason: reason.into(),
            },
        }
    }
}

impl From<PopupSettings> for PopupOverlaySettings {
    fn from(settings: PopupSettings) -> Self {
        Self {
            style: settings.style,
            version: settings.version,
            show_until_signup: settings.show_until_signup,
            display_frequency: settings.display_frequency,
            enable_mobile: settings.enable_mobile,
            content: Default::default(),
        }
    }
}

/// The storage key of the popup record, the same one the site uses in the browser.
#[uniffi::export]
pub fn popup_record_key() -> String {
    popup::POPUP_RECORD_KEY.to_owned()
}

/// One site's popup, deciding with the app's clock and remembering through the app's storage.
#[derive(uniffi::Object)]
pub struct PopupOverlay {
    settings: PopupOverlaySettings,
    clock: Arc<dyn Clock>,
    storage: Arc<dyn PopupRecordStorage>,
}

impl PopupOverlay {
    /// The stored record; an unreadable one counts as none, as on the web.
    fn record(&self) -> Option<PopupRecord> {
        self.storage
            .load()
            .and_then(|stored| PopupRecord::parse(&stored))
    }
}

#[uniffi::export]
impl PopupOverlay {
    #[uniffi::constructor]
    pub fn new(
        settings: PopupSettings,
        clock: Arc<dyn Clock>,
        storage: Arc<dyn PopupRecordStorage>,
    ) -> Arc<Self> {
        Arc::new(Self {
            settings: settings.into(),
            clock,
            storage,
        })
    }

    /// Whether the popup opens on this page now.
    pub fn decide(&self, page: PopupPage) -> PopupDecision {
        let situation = PageSituation {
            not_found: page.not_found,
            lock_screen: page.lock_screen,
            screenshot: page.screenshot,
            mobile: page.mobile,
            banner_pending: page.banner_pending,
            now_ms: self.clock.now_ms(),
        };
        popup::decide(&self.settings, self.record().as_ref(), &situation).into()
    }

    /// Remembers that the visitor closed the popup now.
    pub fn record_closed(&self) {
        let record = self.record().unwrap_or_default();
        let closed = record.closed(self.settings.version, self.clock.now_ms());
        self.storage.save(closed.to_json());
    }

    /// Remembers that the visitor submitted the popup's form now.
    pub fn record_submitted(&self) {
        let submitted = PopupRecord::submitted(self.settings.version, self.clock.now_ms());
        self.storage.save(submitted.to_json());
    }
}
