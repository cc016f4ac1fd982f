//! Enumerations of visitor analytics and overlays.

use super::macros::numeric_enum;

numeric_enum! {
    /// What kind of element an overlay event came from (001 §3 "Overlay kinds").
    pub enum OverlayKind {
        ButtonBlock = 1 => "button block",
        PopupOverlay = 2 => "popup overlay",
    }
}

numeric_enum! {
    /// The type of an analytics event (001 §3).
    pub enum AnalyticsEventType {
        PageView = 1 => "page view",
        SiteSearch = 2 => "site search",
        Heartbeat = 10 => "heartbeat",
        Audio = 20 => "audio",
        Video = 21 => "video",
    }
}
