//! Unit tests of the banner settings, behaviour and receipts.

use super::*;

fn server(pairs: &[(&str, &str)]) -> ServerCookieBannerSettings {
    let mut json = serde_json::Map::new();
    for (key, value) in pairs {
        json.insert((*key).to_owned(), serde_json::Value::from(*value));
    }
    serde_json::from_value(serde_json::Value::Object(json)).unwrap()
}

#[test]
fn defaults_fill_every_missing_field() {
    let settings = CookieBannerSettings::default();
    assert_eq!(settings.cookie_banner_text, DEFAULT_BANNER_TEXT);
    assert_eq!(settings.cookie_banner_cta_text, "Accept");
    assert_eq!(settings.cookie_banner_opt_out_cta_text, "Decline");
    assert_eq!(settings.cookie_banner_variant, BannerVariant::Bar);
    assert_eq!(settings.cookie_banner_position, BannerPosition::Bottom);
    assert_eq!(settings.cookie_banner_theme, BannerTheme::Dark);
    assert_eq!(settings.cookie_banner_cta_variant, CtaVariant::Icon);
    assert_eq!(settings.cookie_banner_accept_type, AcceptType::OptIn);
    assert!(!settings.is_visitor_data_restricted);
}

#[test]
fn invalid_values_and_empty_paragraphs_take_defaults() {
    let settings = CookieBannerSettings::from_server(&server(&[
        ("cookieBannerText", "<p></p>"),
        ("cookieBannerCtaText", "  "),
        ("cookieBannerTheme", "dark"),
        ("cookieBannerCtaVariant", "LINK"),
        ("cookieBannerAcceptType", "OPT_OUT"),
        ("cookieBannerVariant", "MODAL"),
    ]));
    assert_eq!(settings, CookieBannerSettings::default());
}

#[test]
fn bar_positions_map_to_top_or_bottom() {
    for (given, expected) in [
        ("TOP", BannerPosition::Top),
        ("BOTTOM", BannerPosition::Bottom),
        ("TOP_LEFT", BannerPosition::Top),
        ("TOP_RIGHT", BannerPosition::Top),
        ("BOTTOM_RIGHT", BannerPosition::Bottom),
        ("MIDDLE", BannerPosition::Bottom),
    ] {
        let settings = CookieBannerSettings::from_server(&server(&[
            ("cookieBannerVariant", "BAR"),
            ("cookieBannerPosition", given),
        ]));
        assert_eq!(settings.cookie_banner_position, expected, "{given}");
    }
}

#[test]
fn popup_positions_map_to_corners() {
    for (given, expected) in [
        ("TOP", BannerPosition::TopLeft),
        ("BOTTOM", BannerPosition::BottomLeft),
        ("TOP_RIGHT", BannerPosition::TopRight),
        ("BOTTOM_RIGHT", BannerPosition::BottomRight),
        ("TOP_LEFT", BannerPosition::TopLeft),
        ("CENTER", BannerPosition::BottomLeft),
    ] {
        let settings = CookieBannerSettings::from_server(&server(&[
            ("cookieBannerVariant", "POPUP"),
            ("cookieBannerPosition", given),
        ]));
        assert_eq!(settings.cookie_banner_position, expected, "{given}");
    }
}

#[test]
fn server_flags_map_to_page_flags() {
    let shape: ServerCookieBannerSettings = serde_json::from_str(
        r#"{"isActivityLogEnabled": false, "isAnalyticsCookiesDisabled": true,
            "isCookieBannerEnabled": true, "isRestrictiveCookiePolicyAbsolute": true}"#,
    )
    .unwrap();
    let settings = CookieBannerSettings::from_server(&shape);
    assert!(settings.is_visitor_data_restricted);
    assert!(settings.is_restrictive_cookie_policy_enabled);
    assert!(settings.is_cookie_banner_enabled);
    assert!(settings.is_restrictive_cookie_policy_absolute);
    assert_eq!(
        CookieBannerSettings::from_server(&settings.to_server()),
        settings
    );
}

#[test]
fn banner_shows_unless_a_consent_cookie_exists() {
    let mut settings = CookieBannerSettings::default();
    assert_eq!(
        banner_display(&settings, false, false, false),
        BannerDisplay::Hidden
    );
    settings.is_cookie_banner_enabled = true;
    assert_eq!(
        banner_display(&settings, false, false, false),
        BannerDisplay::Shown { gpc_notice: false }
    );
    assert_eq!(
        banner_display(&settings, false, true, false),
        BannerDisplay::Shown { gpc_notice: true }
    );
    assert_eq!(
        banner_display(&settings, true, false, false),
        BannerDisplay::Hidden
    );
    assert_eq!(
        banner_display(&settings, true, false, true),
        BannerDisplay::Forced
    );
}

#[test]
fn consent_cookie_round_trips_and_gpc_counts_as_decline() {
    for choice in [ConsentChoice::Accepted, ConsentChoice::Declined] {
        assert_eq!(
            parse_consent_cookie(consent_cookie_value(choice)),
            Some(choice)
        );
    }
    assert_eq!(parse_consent_cookie("yes"), None);
    assert_eq!(effective_consent(None, true), Consent::GpcDeclined);
    assert_eq!(effective_consent(Some("junk"), false), Consent::Undecided);
    assert_eq!(
        effective_consent(Some("true"), true),
        Consent::Decided(ConsentChoice::Accepted)
    );
    assert_eq!(CONSENT_COOKIE_MAX_AGE_SECONDS, 2_592_000);
}

#[test]
fn tracking_cookies_wait_for_consent_under_opt_in_and_restrictive_policies() {
    let mut settings = CookieBannerSettings::default();
    assert!(!tracking_cookies_allowed(&settings, Consent::Undecided));
    assert!(tracking_cookies_allowed(
        &settings,
        Consent::Decided(ConsentChoice::Accepted)
    ));
    settings.cookie_banner_accept_type = AcceptType::OptInAndOut;
    assert!(tracking_cookies_allowed(&settings, Consent::Undecided));
    assert!(!tracking_cookies_allowed(&settings, Consent::GpcDeclined));
    settings.is_restrictive_cookie_policy_enabled = true;
    assert!(!tracking_cookies_allowed(&settings, Consent::Undecided));
    settings.is_restrictive_cookie_policy_absolute = true;
    assert!(!tracking_cookies_allowed(
        &settings,
        Consent::Decided(ConsentChoice::Accepted)
    ));
}

#[test]
fn receipts_are_stored_once_and_export_as_csv() {
    let store = MemoryConsentReceiptStore::new();
    let receipt = |id: &str, at: i64, source| ConsentReceipt {
        id: ReceiptId::new(id).unwrap(),
        banner_version: BANNER_VERSION,
        choice: ConsentChoice::Declined,
        source,
        recorded_at_ms: at,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    runtime.block_on(async {
        store.record(&receipt("b", 20, ConsentSource::Banner)).await.unwrap();
        store.record(&receipt("a", 10, ConsentSource::Gpc)).await.unwrap();
        assert!(matches!(
            store.record(&receipt("a", 30, ConsentSource::Gpc)).await,
            Err(RecordReceiptError::Duplicate)
        ));
        let all = store.all().await.unwrap();
        assert_eq!(
            receipts_csv(&all),
            "id,bannerVersion,choice,source,recordedAtMs\na,2,declined,gpc,10\nb,2,declined,banner,20\n"
        );
    });
    assert!(ReceiptId::new("a,b").is_err());
    assert!(ReceiptId::new("").is_err());
}
