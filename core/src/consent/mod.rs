//! Cookie consent (spec 000 s3, s4, s5, s9): the banner's settings and their normalisation, the
//! banner's behaviour, the Global Privacy Control signal, the tracking cookies a refusal clears,
//! and consent receipts.

mod behaviour;
mod receipts;
mod settings;
mod text;

pub use behaviour::{
    BANNER_BUTTONS, BANNER_VERSION, BannerButton, BannerDisplay, CONSENT_COOKIE,
    CONSENT_COOKIE_MAX_AGE_SECONDS, Consent, ConsentChoice, ConsentSource, GPC_NOTICE,
    TRACKING_COOKIES, banner_display, consent_cookie_value, effective_consent,
    parse_consent_cookie, tracking_cookies_allowed,
};
pub use receipts::{
    ConsentReceipt, ConsentReceiptStore, InvalidReceiptId, MemoryConsentReceiptStore, ReceiptId,
    RecordReceiptError, receipts_csv,
};
pub use settings::{
    AcceptType, BannerPosition, BannerTheme, BannerVariant, CookieBannerSettings, CtaVariant,
    DEFAULT_BANNER_TEXT, DEFAULT_CTA_TEXT, DEFAULT_OPT_OUT_CTA_TEXT, ServerCookieBannerSettings,
};
pub use text::is_blank_html as is_blank_banner_text;

#[cfg(test)]
mod tests;
