//! Round trips and data-driven checks for every enumeration.

use expect_test::{Expect, expect};

use super::*;

fn round_trips<E: NumericEnum + serde::Serialize + serde::de::DeserializeOwned>() {
    for &value in E::all() {
        assert_eq!(
            E::from_code(value.code()),
            Ok(value),
            "{}::{}",
            E::ENUM_NAME,
            value.name()
        );
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(json, value.code().to_string());
        assert_eq!(serde_json::from_str::<E>(&json).unwrap(), value);
    }
    let unused = (0..=u16::MAX)
        .find(|&code| E::all().iter().all(|v| v.code() != code))
        .unwrap();
    let error = E::from_code(unused).unwrap_err();
    assert_eq!(
        error,
        UnknownCode {
            enum_name: E::ENUM_NAME,
            code: unused
        }
    );
    assert!(serde_json::from_str::<E>(&unused.to_string()).is_err());
}

macro_rules! round_trip_tests {
    ($($test:ident => $enum:ty,)+) => {
        $( #[test] fn $test() { round_trips::<$enum>(); } )+

        #[test]
        fn catalog_lists_every_enumeration() {
            let mut names: Vec<_> = catalog().into_iter().map(|d| d.name).collect();
            names.sort_unstable();
            let mut expected = vec![$( <$enum as CodedEnum>::ENUM_NAME, )+ "PlatformVersion"];
            expected.sort_unstable();
            assert_eq!(names, expected);
        }
    };
}

round_trip_tests! {
    block_type_round_trips => BlockType,
    collection_type_round_trips => CollectionType,
    item_type_round_trips => ItemType,
    item_status_round_trips => ItemStatus,
    product_type_round_trips => ProductType,
    unit_round_trips => Unit,
    website_status_round_trips => WebsiteStatus,
    website_type_round_trips => WebsiteType,
    contributor_role_round_trips => ContributorRole,
    permission_code_round_trips => PermissionCode,
    plan_feature_round_trips => PlanFeature,
    page_type_round_trips => PageType,
    cover_type_round_trips => CoverType,
    overlay_kind_round_trips => OverlayKind,
    analytics_event_type_round_trips => AnalyticsEventType,
}

#[test]
fn platform_version_round_trips_as_text() {
    for &version in PlatformVersion::ALL {
        assert_eq!(PlatformVersion::from_code(version.code()), Ok(version));
        let json = serde_json::to_string(&version).unwrap();
        assert_eq!(
            serde_json::from_str::<PlatformVersion>(&json).unwrap(),
            version
        );
    }
    assert_eq!(
        serde_json::to_string(&PlatformVersion::V7_1).unwrap(),
        r#""7.1""#
    );
    let error = PlatformVersion::from_code("7.2").unwrap_err();
    assert_eq!(
        error.to_string(),
        r#""7.2" is not a known PlatformVersion code (expected "7", "7.1" or "8")"#
    );
}

fn check_table<E: NumericEnum>(expect: Expect) {
    let table: String = E::all()
        .iter()
        .map(|v| format!("{} {} {:?}\n", v.code(), v.name(), v.spec_name()))
        .collect();
    expect.assert_eq(&table);
}

#[test]
fn page_type_table_matches_the_specification() {
    check_table::<PageType>(expect![[r#"
        1 MainContent "main content or collection"
        2 Page "page"
        3 Splash "splash page"
        50 ContentItem "content item"
        100 NotFound "not found"
        101 Error "error"
        102 Search "search"
        103 LockScreen "lock screen"
        104 PopupOverlay "popup overlay"
        105 ProtectedContent "protected content"
        106 MemberAreaAccessDenied "member-area access denied"
        200 ShowCart "show cart"
        201 Checkout "checkout"
        202 OrderConfirmed "order confirmed"
        203 Donate "donate"
        204 ContributionConfirmed "contribution confirmed"
        205 CartV2 "cart v2"
        206 SubscriptionConfirmed "subscription confirmed"
        207 OrderReceived "order received"
        208 MembershipConfirmed "membership confirmed"
        209 ReviewsRequest "reviews request"
        210 DigitalProductComposerPreview "digital product composer preview"
        211 OrderStatus "order status"
        300 NewsletterUnsubscribe "newsletter unsubscribe"
        301 CommerceEmailPreview "commerce email preview"
    "#]]);
}

#[test]
fn small_tables_match_the_specification() {
    check_table::<ItemStatus>(expect![[r#"
        1 Published "published"
        2 Scheduled "scheduled"
        3 NeedsReview "needs_review"
        4 Draft "draft"
        5 Private "private"
        6 Deleted "deleted"
    "#]]);
    check_table::<CoverType>(expect![[r#"
        1 CoverPage "cover page"
        2 LockScreen "lock screen"
        3 PopupOverlay "popup overlay"
    "#]]);
    check_table::<PermissionCode>(expect![[r#"
        1 Config "config"
        2 Admin "admin"
        11 ContentManager "content manager"
        12 Settings "settings"
        14 Commerce "commerce"
    "#]]);
    check_table::<PlanFeature>(expect![[r#"
        6 Commerce "commerce"
        40 GiftCards "gift cards"
        50 Subscriptions "subscriptions"
        56 PointOfSale "point of sale"
        66 ProductReviews "product reviews"
        67 ProductReviewRequests "product review requests"
    "#]]);
}

#[test]
fn block_type_codes_skip_the_unassigned_ones() {
    let codes: Vec<u16> = BlockType::ALL.iter().map(|b| b.code()).collect();
    assert_eq!(codes.len(), 62);
    for gap in [15, 34, 35, 36, 37, 38, 39, 40, 64] {
        assert!(!codes.contains(&gap), "{gap} should not be assigned");
    }
    assert_eq!(BlockType::from_code(71), Ok(BlockType::Shape));
    assert_eq!(BlockType::from_code(42).unwrap().to_string(), "500px");
}

#[test]
fn unknown_code_error_names_the_enum_and_code() {
    assert_eq!(
        BlockType::from_code(15).unwrap_err().to_string(),
        "15 is not a known BlockType code"
    );
    let json_error = serde_json::from_str::<PageType>("4")
        .unwrap_err()
        .to_string();
    assert_eq!(json_error, "4 is not a known PageType code");
}

#[test]
fn workflow_labels_follow_the_specification() {
    let labels: String = ItemStatus::ALL
        .iter()
        .map(|s| format!("{} -> {}\n", s.name(), s.workflow_label()))
        .collect();
    expect![[r#"
        Published -> Available
        Scheduled -> Scheduled
        NeedsReview -> Unsupported
        Draft -> Hidden
        Private -> Unsupported
        Deleted -> Unsupported
    "#]]
    .assert_eq(&labels);
}

#[test]
fn measurement_units_follow_the_standard() {
    assert_eq!(
        (
            Unit::Imperial.weight_unit(),
            Unit::Imperial.dimension_unit()
        ),
        ("lbs", "inch")
    );
    assert_eq!(
        (Unit::Metric.weight_unit(), Unit::Metric.dimension_unit()),
        ("kg", "cm")
    );
}
