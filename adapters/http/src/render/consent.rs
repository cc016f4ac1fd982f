//! The cookie banner's markup (000 s3, s4), rendered on every page of a site whose banner is
//! enabled. It is rendered `hidden`: the page HTML is cached and shared by all visitors, so the
//! small banner script decides per visitor (no `ss_cookieAllowed` cookie yet) whether to show
//! it. Without JavaScript no tracking runs either, so nothing is lost by keeping it hidden.

use askama::Template;
use vitrine_core::consent::{
    BANNER_VERSION, CookieBannerSettings, CtaVariant, GPC_NOTICE, is_blank_banner_text,
};
use vitrine_core::site::CookieSettings;

/// The banner of one site.
#[derive(Template)]
#[template(path = "partials/cookie_banner.html", whitespace = "minimize")]
pub(crate) struct CookieBanner {
    settings: CookieBannerSettings,
    version: u32,
    gpc_notice: &'static str,
}

impl askama::filters::HtmlSafe for CookieBanner {}

impl CookieBanner {
    /// The banner for a site's cookie settings, or `None` when the banner is off. The site
    /// model carries only the three page-context flags; texts and looks take the defaults of
    /// 000 s5 until the owner's bundle carries them.
    pub(crate) fn for_site(cookies: &CookieSettings) -> Option<Self> {
        let settings = banner_settings(cookies);
        settings.is_cookie_banner_enabled.then_some(Self {
            settings,
            version: BANNER_VERSION,
            gpc_notice: GPC_NOTICE,
        })
    }

    fn class_names(&self) -> String {
        let s = &self.settings;
        format!(
            "cookie-banner cookie-banner--{} cookie-banner--{} cookie-banner--{} cookie-banner--cta-{}",
            s.cookie_banner_variant.wire().to_lowercase(),
            s.cookie_banner_position
                .wire()
                .to_lowercase()
                .replace('_', "-"),
            s.cookie_banner_theme.wire().to_lowercase(),
            s.cookie_banner_cta_variant.wire().to_lowercase(),
        )
    }

    fn icons(&self) -> bool {
        self.settings.cookie_banner_cta_variant == CtaVariant::Icon
    }

    /// The banner text as plain text: the default is plain, and owner HTML is reduced to its
    /// words so nothing unsanitised reaches the page.
    fn text(&self) -> String {
        plain_text(&self.settings.cookie_banner_text)
    }
}

/// The normalised banner settings of a site.
pub(crate) fn banner_settings(cookies: &CookieSettings) -> CookieBannerSettings {
    CookieBannerSettings {
        is_cookie_banner_enabled: cookies.is_cookie_banner_enabled,
        is_restrictive_cookie_policy_enabled: cookies.is_restrictive_cookie_policy_enabled,
        is_restrictive_cookie_policy_absolute: cookies.is_restrictive_cookie_policy_absolute,
        ..CookieBannerSettings::default()
    }
}

fn plain_text(html: &str) -> String {
    if is_blank_banner_text(html) {
        return String::new();
    }
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&nbsp;", " ").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banner_renders_only_when_enabled_with_equal_buttons() {
        assert!(CookieBanner::for_site(&CookieSettings::default()).is_none());
        let cookies = CookieSettings {
            is_cookie_banner_enabled: true,
            ..CookieSettings::default()
        };
        let html = CookieBanner::for_site(&cookies).unwrap().to_string();
        assert!(html.contains("data-vitrine-cookie-banner"));
        assert!(html.contains("cookie-banner--bar cookie-banner--bottom cookie-banner--dark"));
        assert!(html.contains("By using this website, you agree to our use of cookies."));
        assert!(html.contains("Accept</button>") && html.contains("Decline</button>"));
        assert_eq!(html.matches("class=\"cookie-banner__button\"").count(), 2);
        assert!(html.contains(GPC_NOTICE));
    }

    #[test]
    fn owner_html_becomes_plain_text() {
        assert_eq!(
            plain_text("<p>We <b>use</b> cookies&nbsp;</p>"),
            "We use cookies"
        );
        assert_eq!(plain_text("<p></p>"), "");
    }
}
