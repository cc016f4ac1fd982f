//! The core's rules for the native mobile app, exported through uniffi to Kotlin, Swift,
//! React Native (TypeScript over JSI) and Python (the tests).
//!
//! Thin wrappers only: each function converts its arguments into the core's types, calls one
//! core rule and converts the answer back. What the app supplies (a clock, storage for the
//! popup record) comes in through foreign traits, so the rules stay pure.

mod bridge;
mod cart;
mod consent;
mod experiments;
mod mirror;
mod money;
mod popup;

pub use bridge::{
    BridgeLimits, BridgeMessageError, BridgeName, BridgeRequest, InfoResult, MobilePlatform,
    bridge_limits, build_dismiss_reply, build_error_reply, build_info_reply,
    identify_mobile_platform, parse_bridge_request,
};
pub use cart::{CartIndicatorLabel, cart_display_cap, cart_indicator_label};
pub use consent::{
    AcceptType, BannerDisplay, BannerPosition, BannerTheme, BannerVariant, ConsentChoice,
    ConsentCookie, ConsentDecision, ConsentError, ConsentState, CookieBannerSettings, CtaVariant,
    ServerCookieBannerSettings, consent_cookie, consent_decision, normalise_cookie_banner,
    normalise_cookie_banner_json,
};
pub use experiments::{
    DeviceClass, ExperimentDecision, ExperimentType, ExperimentVisitor, ExperimentsError,
    VisitorKind, decide_experiment, experiment_bucket, is_feature_enabled,
    mouse_position_tracking_enabled, sample_picks, session_replay_enabled,
};
pub use money::{CurrencyInfo, MoneyError, format_money, supported_currencies, supported_locales};
pub use popup::{
    Clock, PopupDecision, PopupHideReason, PopupOverlay, PopupPage, PopupRecordStorage,
    PopupSettings, popup_record_key,
};

uniffi::setup_scaffolding!();
