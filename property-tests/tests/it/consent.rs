//! Banner normalisation always yields a valid setting, and normalising again changes nothing.

use proptest::prelude::*;
use vitrine_core::consent::{
    AcceptType, BannerPosition, BannerTheme, BannerVariant, CookieBannerSettings, CtaVariant,
    ServerCookieBannerSettings,
};

/// A field value: missing, one of the valid words, a wrong-case word, blank HTML or junk.
fn loose(valid: &'static [&'static str]) -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        Just(None),
        proptest::sample::select(valid).prop_map(|w| Some(w.to_owned())),
        proptest::sample::select(valid).prop_map(|w| Some(w.to_lowercase())),
        proptest::sample::select(&["", " ", "<p></p>", "<p><br></p>", "&nbsp;"][..])
            .prop_map(|w| Some(w.to_owned())),
        ".{0,12}".prop_map(Some),
    ]
}

fn words<T: Copy>(all: &[T], wire: fn(T) -> &'static str) -> &'static [&'static str] {
    Box::leak(
        all.iter()
            .map(|v| wire(*v))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

prop_compose! {
    fn server_shape()(
        text in loose(&["Cookies help us.", "<p>We use cookies.</p>"]),
        cta in loose(&["OK"]),
        opt_out in loose(&["No thanks"]),
        variant in loose(words(BannerVariant::ALL, BannerVariant::wire)),
        position in loose(words(BannerPosition::ALL, BannerPosition::wire)),
        theme in loose(words(BannerTheme::ALL, BannerTheme::wire)),
        cta_variant in loose(words(CtaVariant::ALL, CtaVariant::wire)),
        accept in loose(words(AcceptType::ALL, AcceptType::wire)),
        flags in proptest::array::uniform4(proptest::option::of(any::<bool>())),
    ) -> ServerCookieBannerSettings {
        ServerCookieBannerSettings {
            cookie_banner_text: text,
            cookie_banner_cta_text: cta,
            cookie_banner_opt_out_cta_text: opt_out,
            cookie_banner_variant: variant,
            cookie_banner_position: position,
            cookie_banner_theme: theme,
            cookie_banner_cta_variant: cta_variant,
            cookie_banner_accept_type: accept,
            is_cookie_banner_enabled: flags[0],
            is_restrictive_cookie_policy_absolute: flags[1],
            is_analytics_cookies_disabled: flags[2],
            is_activity_log_enabled: flags[3],
        }
    }
}

proptest! {
    #[test]
    fn normalisation_is_valid_and_idempotent(shape in server_shape()) {
        let once = CookieBannerSettings::from_server(&shape);
        prop_assert!(once.is_valid(), "{once:?}");
        let twice = CookieBannerSettings::from_server(&once.to_server());
        prop_assert_eq!(&twice, &once);
        // The two flags with server names keep their meaning through the mapping.
        prop_assert_eq!(
            once.is_visitor_data_restricted,
            !shape.is_activity_log_enabled.unwrap_or(true)
        );
        prop_assert_eq!(
            once.is_restrictive_cookie_policy_enabled,
            shape.is_analytics_cookies_disabled.unwrap_or(false)
        );
    }
}
