//! Every enumeration round-trips through its code, and every other code is an error.

use proptest::prelude::*;
use vitrine_core::enums::*;

/// For any code: `from_code` succeeds exactly for the codes of `ALL`, returns the value with
/// that code, agrees with serde, and names the enumeration and code when it fails.
fn check_code<E>(code: u16) -> Result<(), TestCaseError>
where
    E: NumericEnum + serde::de::DeserializeOwned,
{
    let known = E::all().iter().find(|value| value.code() == code).copied();
    match E::from_code(code) {
        Ok(value) => {
            prop_assert_eq!(Some(value), known);
            prop_assert_eq!(value.code(), code);
        }
        Err(error) => {
            prop_assert_eq!(known, None);
            prop_assert_eq!(
                error,
                UnknownCode {
                    enum_name: E::ENUM_NAME,
                    code
                }
            );
        }
    }
    let from_json = serde_json::from_str::<E>(&code.to_string()).ok();
    prop_assert_eq!(from_json, known);
    Ok(())
}

/// Every value of `ALL` round-trips, and no two values share a code.
fn check_all<E: NumericEnum>() -> Result<(), TestCaseError> {
    for &value in E::all() {
        prop_assert_eq!(E::from_code(value.code()), Ok(value));
    }
    let mut codes: Vec<u16> = E::all().iter().map(|value| value.code()).collect();
    codes.sort_unstable();
    codes.dedup();
    prop_assert_eq!(codes.len(), E::all().len());
    Ok(())
}

/// Codes near the assigned ones are the interesting unknowns, so most draws come from there.
fn code() -> impl Strategy<Value = u16> {
    prop_oneof![3 => 0u16..400, 1 => any::<u16>()]
}

macro_rules! enum_properties {
    ($($test:ident => $enum:ty,)+) => {
        proptest! {
            $(
                #[test]
                fn $test(code in code()) {
                    check_all::<$enum>()?;
                    check_code::<$enum>(code)?;
                }
            )+
        }
    };
}

enum_properties! {
    block_type_codes => BlockType,
    collection_type_codes => CollectionType,
    item_type_codes => ItemType,
    item_status_codes => ItemStatus,
    product_type_codes => ProductType,
    unit_codes => Unit,
    website_status_codes => WebsiteStatus,
    website_type_codes => WebsiteType,
    contributor_role_codes => ContributorRole,
    permission_code_codes => PermissionCode,
    plan_feature_codes => PlanFeature,
    page_type_codes => PageType,
    cover_type_codes => CoverType,
    overlay_kind_codes => OverlayKind,
    analytics_event_type_codes => AnalyticsEventType,
}

proptest! {
    #[test]
    fn platform_versions_accept_only_their_texts(text in prop_oneof![
        Just("7".to_owned()), Just("7.1".to_owned()), Just("8".to_owned()), "[0-9.]{0,4}", ".*",
    ]) {
        let known = PlatformVersion::ALL.iter().find(|v| v.code() == text).copied();
        prop_assert_eq!(PlatformVersion::from_code(&text).ok(), known);
        if let Some(version) = known {
            prop_assert_eq!(version.code(), text.as_str());
        }
    }

    #[test]
    fn layout_breakpoint_is_mobile_exactly_up_to_432(width in any::<u32>()) {
        let expected = if width <= 432 { LayoutBreakpoint::Mobile } else { LayoutBreakpoint::Desktop };
        prop_assert_eq!(LayoutBreakpoint::classify(width), expected);
    }
}
