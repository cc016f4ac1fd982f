use super::fixtures::{demo_experiments, experiment, variant, visitor};
use super::*;

fn site() -> Experiments {
    let mut site = demo_experiments();
    site.0.push(experiment(
        "broken",
        ExperimentType::AbTest,
        vec![variant("a", 0)],
    ));
    site
}

#[test]
fn the_error_texts_are_the_specifications() {
    assert_eq!(
        ExperimentError::NotLoaded.to_string(),
        "The underlying Praetor configuration is not loaded"
    );
    assert_eq!(
        ExperimentError::UnknownFeature.to_string(),
        "The specified feature does not exist"
    );
    assert_eq!(
        ExperimentError::WrongType(ExperimentType::FeatureToggle).to_string(),
        "The specified feature is not a FEATURE_TOGGLE"
    );
    assert_eq!(
        ExperimentError::InvalidDefinition.to_string(),
        "The specified feature has an invalid server-side definition"
    );
}

#[test]
fn defaults_are_returned_with_the_reason() {
    let site = site();
    let ada = visitor("ada");
    let cases = [
        (
            None,
            "home-headline",
            ExperimentType::AbTest,
            ExperimentError::NotLoaded,
            "control",
        ),
        (
            Some(&site),
            "nope",
            ExperimentType::FeatureToggle,
            ExperimentError::UnknownFeature,
            "false",
        ),
        (
            Some(&site),
            "home-headline",
            ExperimentType::FeatureToggle,
            ExperimentError::WrongType(ExperimentType::FeatureToggle),
            "false",
        ),
        (
            Some(&site),
            "broken",
            ExperimentType::AbTest,
            ExperimentError::InvalidDefinition,
            "control",
        ),
    ];
    for (configuration, name, expected, error, variant) in cases {
        let decided = decide(configuration, name, expected, &ada);
        assert_eq!(decided.error, Some(error), "{name}");
        assert!(decided.context.contains_error);
        assert_eq!(decided.context.variant, variant);
        assert!(!decided.exposed);
        assert!(!is_feature_enabled(&decided.context));
    }
}

#[test]
fn a_toggle_is_on_when_its_variant_is_true() {
    let decided = decide(
        Some(&site()),
        "free-shipping-note",
        ExperimentType::FeatureToggle,
        &visitor("ada"),
    );
    assert_eq!(decided.error, None);
    assert_eq!(decided.context.variant, "true");
    assert!(is_feature_enabled(&decided.context));
    assert!(decided.exposed);
}

#[test]
fn the_bucket_is_fixed_for_a_pair_and_differs_between_experiments() {
    // Pinned: the browser, the server and the app must all compute these.
    assert_eq!(
        bucket("home-headline", "ada"),
        bucket("home-headline", "ada")
    );
    expect_test::expect!["[6630, 5014, 8179]"].assert_eq(&format!(
        "{:?}",
        [
            bucket("home-headline", "ada"),
            bucket("free-shipping-note", "ada"),
            bucket("home-headlinea", "da"),
        ]
    ));
}

#[test]
fn variants_share_the_buckets_by_weight() {
    assert_eq!(pick_variant(0, &[50, 50]), Some(0));
    assert_eq!(pick_variant(4999, &[50, 50]), Some(0));
    assert_eq!(pick_variant(5000, &[50, 50]), Some(1));
    assert_eq!(pick_variant(BUCKETS - 1, &[50, 50]), Some(1));
    assert_eq!(
        pick_variant(0, &[0, 1]),
        Some(1),
        "a weight of 0 takes no one"
    );
    assert_eq!(pick_variant(3, &[0, 0]), None);
    assert!(sample_picks(99, 100) && !sample_picks(100, 100));
}

#[test]
fn visitors_outside_the_segment_see_the_control_and_are_not_exposed() {
    let mut headline = experiment(
        "home-headline",
        ExperimentType::AbTest,
        vec![variant("control", 0), variant("warm", 1)],
    );
    headline.segment = Some(Segment {
        name: "returning phones in portuguese".to_owned(),
        visitor: Some(VisitorKind::Returning),
        member: None,
        device: Some(DeviceClass::Mobile),
        locale: Some("pt".to_owned()),
    });
    let site = Experiments(vec![headline]);
    let mut ines = visitor("ines");
    ines.kind = VisitorKind::Returning;
    ines.device = DeviceClass::Mobile;
    ines.locale = "pt-PT".to_owned();
    let inside = decide(Some(&site), "home-headline", ExperimentType::AbTest, &ines);
    assert_eq!(inside.context.variant, "warm");
    assert_eq!(
        inside.context.segment_name.as_deref(),
        Some("returning phones in portuguese")
    );
    assert!(inside.exposed);

    ines.locale = "ptx".to_owned();
    let outside = decide(Some(&site), "home-headline", ExperimentType::AbTest, &ines);
    assert_eq!(outside.context.variant, "control");
    assert_eq!(outside.context.segment_name, None);
    assert!(!outside.exposed && !outside.context.contains_error);
}

#[test]
fn definitions_are_checked() {
    let check = |experiment: Experiment| experiment.check().map_err(|e| e.to_string());
    assert_eq!(
        check(experiment(
            "Bad Name",
            ExperimentType::AbTest,
            vec![variant("a", 1)]
        )),
        Err(
            "the name \"Bad Name\" must be 1 to 64 lowercase letters, digits, '-', '_' or '.'"
                .into()
        )
    );
    assert!(
        check(experiment(
            "t",
            ExperimentType::FeatureToggle,
            vec![variant("on", 1)]
        ))
        .is_err()
    );
    assert!(check(experiment("t", ExperimentType::AbTest, vec![])).is_err());
    assert!(
        check(experiment(
            "t",
            ExperimentType::AbTest,
            vec![variant("a", 1), variant("a", 1)]
        ))
        .is_err()
    );
    assert!(
        check(experiment(
            "t",
            ExperimentType::AbTest,
            vec![variant("a", MAX_TOTAL_WEIGHT), variant("b", 1)]
        ))
        .is_err()
    );
    let mut paged = experiment("t", ExperimentType::AbTest, vec![variant("a", 1)]);
    paged.pages = vec!["about".to_owned()];
    assert!(check(paged).is_err());
    let twice = Experiments(vec![
        experiment("t", ExperimentType::AbTest, vec![variant("a", 1)]),
        experiment("t", ExperimentType::AbTest, vec![variant("b", 1)]),
    ]);
    assert!(twice.check().is_err());
}

#[test]
fn cookieless_buckets_are_marked() {
    let mut anonymous = visitor("daily-hash");
    anonymous.key = VisitorKey::Cookieless("daily-hash".to_owned());
    let assignments = assign_all(&site(), "/", &anonymous);
    assert!(assignments.iter().all(|assignment| assignment.cookieless));
}

#[test]
fn the_cache_key_names_every_decision() {
    let site = site();
    let key = |id: &str| cache_key_suffix(&assign_all(&site, "/", &visitor(id)));
    let keys: std::collections::BTreeSet<String> =
        (0..50).map(|n| key(&format!("visitor-{n}"))).collect();
    assert_eq!(
        keys.len(),
        2,
        "two headline variants, one toggle, a broken test: {keys:?}"
    );
    assert!(keys.iter().all(|key| key.contains("broken=control!")));
    assert_eq!(cache_key_suffix(&[]), "");
}

#[test]
fn the_device_class_comes_from_the_user_agent() {
    let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";
    let tablet = "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Safari/537.36";
    let pixel = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36";
    assert_eq!(DeviceClass::from_user_agent(iphone), DeviceClass::Mobile);
    assert_eq!(DeviceClass::from_user_agent(tablet), DeviceClass::Tablet);
    assert_eq!(DeviceClass::from_user_agent(pixel), DeviceClass::Mobile);
    assert_eq!(DeviceClass::from_user_agent("curl/8"), DeviceClass::Desktop);
}

#[test]
fn the_gating_rules_of_001_s6() {
    assert!(mouse_position_tracking_enabled(true));
    assert!(!mouse_position_tracking_enabled(false));
    assert!(session_replay_enabled(true, true, Some(3)));
    assert!(!session_replay_enabled(true, true, Some(2)));
    assert!(!session_replay_enabled(true, true, None));
    assert!(!session_replay_enabled(false, true, Some(8)));
    assert!(!session_replay_enabled(true, false, Some(8)));
}

#[test]
fn the_difference_of_conversion_rates_has_a_95_percent_interval() {
    // 10 of 100 against 5 of 100: d = 0.05, se = sqrt(.1 * .9 / 100 + .05 * .95 / 100).
    let (difference, low, high) = rate_difference((100, 10), (100, 5)).unwrap();
    let se = (0.1f64 * 0.9 / 100.0 + 0.05 * 0.95 / 100.0).sqrt();
    assert!((difference - 0.05).abs() < 1e-12);
    assert!((low - (0.05 - 1.959_964 * se)).abs() < 1e-12);
    assert!((high - (0.05 + 1.959_964 * se)).abs() < 1e-12);
    assert!(low < 0.0 && high > 0.0, "not significant at this size");
    assert_eq!(rate_difference((0, 0), (100, 5)), None);
}

#[test]
fn the_report_lists_variants_in_definition_order_against_the_control() {
    use crate::analytics::ExposureCount;
    let counts = vec![
        ExposureCount {
            subject: "gone=a".into(),
            visitors: 4,
            cookieless_visitors: 4,
            converted: 1,
        },
        ExposureCount {
            subject: "home-headline=control".into(),
            visitors: 100,
            cookieless_visitors: 0,
            converted: 5,
        },
        ExposureCount {
            subject: "home-headline=warm".into(),
            visitors: 100,
            cookieless_visitors: 10,
            converted: 10,
        },
    ];
    let figures = experiment_figures(&counts, &site());
    let lines: Vec<(&str, &str, u64, bool)> = figures
        .iter()
        .map(|f| {
            (
                f.experiment.as_str(),
                f.variant.as_str(),
                f.visitors,
                f.difference.is_some(),
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            ("home-headline", "control", 100, false),
            ("home-headline", "warm", 100, true),
            ("free-shipping-note", "true", 0, false),
            ("free-shipping-note", "false", 0, false),
            ("broken", "a", 0, false),
            ("gone", "a", 4, false),
        ]
    );
    let warm = &figures[1];
    assert_eq!(warm.conversion_rate, Some(0.1));
    assert_eq!(warm.cookieless_visitors, 10);
    assert_eq!(warm.difference.as_ref().unwrap().against, "control");
}

#[test]
fn a_page_runs_an_experiment_when_one_names_it_or_names_no_page() {
    let mut sale = experiment("sale", ExperimentType::AbTest, vec![variant("a", 1)]);
    sale.pages = vec!["/sale".to_owned()];
    let only_sale = Experiments(vec![sale.clone()]);
    assert!(only_sale.any_applies_to("/sale"));
    assert!(!only_sale.any_applies_to("/shipping"));
    assert!(!Experiments::default().any_applies_to("/sale"));
    let everywhere = experiment("banner", ExperimentType::AbTest, vec![variant("a", 1)]);
    assert!(Experiments(vec![sale, everywhere]).any_applies_to("/shipping"));
}
