//! `[settings.store]`'s store rules (shipping options, tax rules, coupons, the minimum
//! subtotal) into the site's [`SiteStoreRules`], each refusal naming its field.

use std::collections::BTreeSet;

use crate::bundle::BundleError;
use crate::bundle::convert::non_empty;
use crate::bundle::dto::{CouponDto, ShippingOptionDto, StoreDto, TaxRuleDto};
use crate::bundle::error::At;
use crate::bundle::text::epoch_millis;
use crate::cart::{
    Coupon, CouponCode, CouponKind, ShippingOption, ShippingRate, SiteStoreRules, TaxRule,
    Timestamp,
};

/// The store rules of `dto`, found at `at` (`settings.store`).
pub(crate) fn store_rules(at: &At, dto: &StoreDto) -> Result<SiteStoreRules, BundleError> {
    let mut shipping_options = Vec::new();
    let mut ids = BTreeSet::new();
    for (index, option) in dto.shipping_options.iter().enumerate() {
        let at = at.field("shipping_options").index(index);
        let option = shipping_option(&at, option)?;
        if !ids.insert(option.id.clone()) {
            return Err(at.field("id").error(format!(
                "the shipping option id '{}' is used twice",
                option.id
            )));
        }
        shipping_options.push(option);
    }
    let tax_rules = dto
        .tax_rules
        .iter()
        .enumerate()
        .map(|(index, rule)| tax_rule(&at.field("tax_rules").index(index), rule))
        .collect::<Result<_, _>>()?;
    let mut coupons: Vec<Coupon> = Vec::new();
    for (index, coupon_dto) in dto.coupons.iter().enumerate() {
        let at = at.field("coupons").index(index);
        let coupon = coupon(&at, coupon_dto)?;
        if coupons.iter().any(|other| other.code == coupon.code) {
            return Err(at.field("code").error(format!(
                "the coupon code '{}' is used twice (codes ignore case)",
                coupon.code.as_str()
            )));
        }
        coupons.push(coupon);
    }
    Ok(SiteStoreRules {
        shipping_options,
        tax_rules,
        coupons,
        minimum_subtotal_cents: dto.minimum_subtotal_cents.map(|cents| cents.0),
    })
}

fn shipping_option(at: &At, dto: &ShippingOptionDto) -> Result<ShippingOption, BundleError> {
    non_empty(&at.field("id"), &dto.id)?;
    non_empty(&at.field("name"), &dto.name)?;
    let rate = match (dto.cost_cents, dto.base_cents, dto.per_unit_cents) {
        (Some(cost), None, None) => ShippingRate::FlatRate { cost_cents: cost.0 },
        (None, Some(base), Some(per_unit)) => ShippingRate::ByWeight {
            base_cents: base.0,
            per_unit_cents: per_unit.0,
        },
        _ => {
            return Err(at.error(
                "expected either cost_cents (a flat rate) or both base_cents and \
                 per_unit_cents (by weight)",
            ));
        }
    };
    Ok(ShippingOption {
        id: dto.id.trim().to_owned(),
        name: dto.name.trim().to_owned(),
        rate,
    })
}

fn tax_rule(at: &At, dto: &TaxRuleDto) -> Result<TaxRule, BundleError> {
    non_empty(&at.field("name"), &dto.name)?;
    let country = dto.country.trim().to_ascii_uppercase();
    if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(at.field("country").error(format!(
            "expected a two-letter country code such as PT or US, found '{}'",
            dto.country
        )));
    }
    if !(0..=10_000).contains(&dto.rate_basis_points) {
        return Err(at.field("rate_basis_points").error(format!(
            "expected a rate from 0 to 10000 basis points (8.25 % is 825), found {}",
            dto.rate_basis_points
        )));
    }
    Ok(TaxRule {
        name: dto.name.trim().to_owned(),
        country,
        region: dto.region.trim().to_ascii_uppercase(),
        rate_basis_points: dto.rate_basis_points,
        applies_to_shipping: dto.applies_to_shipping,
    })
}

fn coupon(at: &At, dto: &CouponDto) -> Result<Coupon, BundleError> {
    let code = CouponCode::parse(&dto.code).map_err(|_| {
        at.field("code").error(format!(
            "expected 1 to {} letters, digits, '-' or '_', found '{}'",
            CouponCode::MAX_LEN,
            dto.code
        ))
    })?;
    let kind = match (dto.percent_off, dto.amount_off_cents) {
        (Some(percent), None) if (1..=100).contains(&percent) => CouponKind::Percentage {
            basis_points: i64::from(percent) * 100,
        },
        (Some(percent), None) => {
            return Err(at.field("percent_off").error(format!(
                "expected a percentage from 1 to 100, found {percent}"
            )));
        }
        (None, Some(amount)) if amount.0 > 0 => CouponKind::FixedAmount {
            amount_cents: amount.0,
        },
        (None, Some(_)) => {
            return Err(at
                .field("amount_off_cents")
                .error("expected a positive number of cents"));
        }
        _ => return Err(at.error("expected either percent_off or amount_off_cents")),
    };
    let instant = |name: &str, value: &Option<toml::value::Datetime>| {
        value
            .as_ref()
            .map(|datetime| {
                epoch_millis(datetime)
                    .map(Timestamp)
                    .map_err(|message| at.field(name).error(message))
            })
            .transpose()
    };
    let starts = instant("starts", &dto.starts)?;
    let ends = instant("ends", &dto.ends)?;
    for (name, limit) in [
        ("total_limit", dto.total_limit),
        ("per_customer_limit", dto.per_customer_limit),
    ] {
        if limit == Some(0) {
            return Err(at
                .field(name)
                .error("expected at least 1 use; leave the limit out for a coupon without one"));
        }
    }
    Coupon::new(code, kind, starts, ends)
        .map(|coupon| coupon.with_limits(dto.total_limit, dto.per_customer_limit))
        .map_err(|error| at.field("ends").error(error.to_string()))
}
