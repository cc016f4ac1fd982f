//! The cookie banner's markup (000 s3, s4), rendered on every page of a site whose banner is
//! enabled. It is rendered `hidden`: the page HTML is cached and shared by all visitors, so the
//! small banner script decides per visitor (no `ss_cookieAllowed` cookie yet) whether to show
//! it. Without JavaScript no tracking runs either, so nothing is lost by keeping it hidden.

use askama::Template;
use vitrine_core::consent::{
    BANNER_VERSION, CookieBannerSettings, CtaVariant, GPC_NOTICE, ServerCookieBannerSettings,
    is_blank_banner_text,
};
use vitrine_core::site::{SafeHtml, WebsiteSettings};

use super::markup::Markup;

/// The banner of one site.
#[derive(Template)]
#[template(path = "partials/cookie_banner.html", whitespace = "minimize")]
pub(crate) struct CookieBanner {
    settings: CookieBannerSettings,
    /// The banner text: the owner's sanitised HTML, or the default text.
    text: Markup,
    /// The button labels as plain text: a button holds words, not the owner's markup.
    cta_text: String,
    opt_out_cta_text: String,
    version: u32,
    gpc_notice: &'static str,
}

impl askama::filters::HtmlSafe for CookieBanner {}

impl CookieBanner {
    /// The banner for a site's settings, or `None` when the banner is off. Texts and looks are
    /// the owner's, normalised as 000 s5 says.
    pub(crate) fn for_site(site: &WebsiteSettings) -> Option<Self> {
        Self::new(banner_settings(site))
    }

    fn new(settings: CookieBannerSettings) -> Option<Self> {
        settings.is_cookie_banner_enabled.then(|| Self {
            text: Markup::sanitized(&SafeHtml::sanitize(&settings.cookie_banner_text)),
            cta_text: plain_text(&settings.cookie_banner_cta_text),
            opt_out_cta_text: plain_text(&settings.cookie_banner_opt_out_cta_text),
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
}

/// The normalised banner settings of a site: the three page-context flags with the owner's
/// texts and looks, read through the server-side shape so every default of 000 s5 applies.
pub(crate) fn banner_settings(site: &WebsiteSettings) -> CookieBannerSettings {
    let cookies = &site.cookies;
    let look = &site.cookie_banner;
    CookieBannerSettings::from_server(&ServerCookieBannerSettings {
        cookie_banner_text: look.text.as_ref().map(|text| text.as_str().to_owned()),
        cookie_banner_cta_text: look.cta_text.clone(),
        cookie_banner_opt_out_cta_text: look.opt_out_cta_text.clone(),
        cookie_banner_variant: look.variant.clone(),
        cookie_banner_position: look.position.clone(),
        cookie_banner_theme: look.theme.clone(),
        cookie_banner_cta_variant: look.cta_variant.clone(),
        cookie_banner_accept_type: look.accept_type.clone(),
        is_cookie_banner_enabled: Some(cookies.is_cookie_banner_enabled),
        is_restrictive_cookie_policy_absolute: Some(cookies.is_restrictive_cookie_policy_absolute),
        is_analytics_cookies_disabled: Some(cookies.is_restrictive_cookie_policy_enabled),
        is_activity_log_enabled: None,
    })
}

fn plain_text(html: &str) -> String {
    if is_blank_banner_text(html) {
        return String::new();
    }
    SafeHtml::sanitize(html).plain_text().trim().to_owned()
}

#[cfg(test)]
mod tests {
    use vitrine_core::consent::{AcceptType, BannerPosition, BannerTheme, BannerVariant};
    use vitrine_core::site::{CookieBannerLook, CookieSettings};

    use super::*;

    fn site(look: CookieBannerLook) -> WebsiteSettings {
        let mut settings = vitrine_core::ports::conformance::fixture_site("Site").settings;
        settings.cookies = CookieSettings {
            is_cookie_banner_enabled: true,
            ..CookieSettings::default()
        };
        settings.cookie_banner = look;
        settings
    }

    #[test]
    fn banner_renders_only_when_enabled_with_equal_buttons() {
        let mut off = site(CookieBannerLook::default());
        off.cookies.is_cookie_banner_enabled = false;
        assert!(CookieBanner::for_site(&off).is_none());
        let html = CookieBanner::for_site(&site(CookieBannerLook::default()))
            .unwrap()
            .to_string();
        assert!(html.contains("data-vitrine-cookie-banner"));
        assert!(html.contains("cookie-banner--bar cookie-banner--bottom cookie-banner--dark"));
        assert!(html.contains("By using this website, you agree to our use of cookies."));
        assert!(html.contains("Accept</button>") && html.contains("Decline</button>"));
        assert_eq!(html.matches("class=\"cookie-banner__button\"").count(), 2);
        assert!(html.contains(GPC_NOTICE));
    }

    #[test]
    fn owner_texts_and_looks_are_rendered_sanitised_and_normalised() {
        let look = CookieBannerLook {
            text: Some(SafeHtml::sanitize(
                "<p>We use <a href=\"/privacy\">cookies</a><script>steal()</script></p>",
            )),
            cta_text: Some("<b>Yes</b> &amp; thanks".into()),
            opt_out_cta_text: Some("<p></p>".into()),
            variant: Some("POPUP".into()),
            position: Some("TOP".into()),
            theme: Some("LIGHT".into()),
            cta_variant: Some("TEXT".into()),
            accept_type: Some("OPT_IN_AND_OUT".into()),
        };
        let html = CookieBanner::for_site(&site(look)).unwrap().to_string();
        expect_test::expect![[r#"
            <section class="cookie-banner cookie-banner--popup cookie-banner--top-left cookie-banner--light cookie-banner--cta-text" data-vitrine-cookie-banner data-banner-version="2" data-accept-type="OPT_IN_AND_OUT" data-restrictive="false" data-restrictive-absolute="false" role="region" aria-label="Cookie consent" aria-describedby="cookie-banner-text" tabindex="-1" hidden><div class="cookie-banner__text" id="cookie-banner-text"><p>We use <a href="/privacy" rel="noopener noreferrer">cookies</a></p></div><p class="cookie-banner__gpc" data-gpc-notice hidden>Your browser sent a Global Privacy Control signal, so we treat it as a decline: no tracking cookies are set.</p><div class="cookie-banner__actions"><button type="button" class="cookie-banner__button" data-consent="accept">Yes &#38; thanks</button><button type="button" class="cookie-banner__button" data-consent="decline">Decline</button></div></section>"#]]
        .assert_eq(&html.replace('\n', ""));
    }

    /// Every variant, position, theme, CTA variant and accept type renders a banner whose
    /// classes name the normalised look and whose two buttons match.
    #[test]
    fn every_variant_position_theme_and_cta_renders() {
        let mut rendered = 0;
        for variant in BannerVariant::ALL {
            for position in BannerPosition::ALL {
                for theme in BannerTheme::ALL {
                    for cta in CtaVariant::ALL {
                        for accept in AcceptType::ALL {
                            let look = CookieBannerLook {
                                variant: Some(variant.wire().into()),
                                position: Some(position.wire().into()),
                                theme: Some(theme.wire().into()),
                                cta_variant: Some(cta.wire().into()),
                                accept_type: Some(accept.wire().into()),
                                ..CookieBannerLook::default()
                            };
                            let site = site(look);
                            assert!(banner_settings(&site).is_valid());
                            let normalised = BannerPosition::for_variant(Some(*position), *variant);
                            let html = CookieBanner::for_site(&site).unwrap().to_string();
                            let class = format!(
                                "cookie-banner cookie-banner--{} cookie-banner--{} cookie-banner--{} cookie-banner--cta-{}",
                                variant.wire().to_lowercase(),
                                normalised.wire().to_lowercase().replace('_', "-"),
                                theme.wire().to_lowercase(),
                                cta.wire().to_lowercase(),
                            );
                            assert!(html.contains(&class), "{class} in {html}");
                            assert!(
                                html.contains(&format!("data-accept-type=\"{}\"", accept.wire()))
                            );
                            assert_eq!(
                                html.matches("cookie-banner__icon").count(),
                                if *cta == CtaVariant::Icon { 2 } else { 0 }
                            );
                            assert!(
                                html.contains("Accept</button>")
                                    && html.contains("Decline</button>")
                            );
                            rendered += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(rendered, 2 * 6 * 2 * 3 * 2);
    }

    #[test]
    fn invalid_looks_take_the_defaults() {
        let look = CookieBannerLook {
            variant: Some("bar".into()),
            theme: Some("PURPLE".into()),
            cta_variant: Some(String::new()),
            position: Some("MIDDLE".into()),
            ..CookieBannerLook::default()
        };
        let html = CookieBanner::for_site(&site(look)).unwrap().to_string();
        assert!(html.contains(
            "cookie-banner cookie-banner--bar cookie-banner--bottom cookie-banner--dark cookie-banner--cta-icon"
        ));
    }
}
