//! Shipping options (flat rate, or by weight in the store's unit) and the shipping location.

use serde::{Deserialize, Serialize};

/// Where an order ships to; tax rules are chosen by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingLocation {
    /// ISO 3166-1 alpha-2 country code, upper case ("US").
    pub country: String,
    /// State, province or region code ("NY"); empty when the country has none.
    #[serde(default)]
    pub region: String,
    #[serde(default)]
    pub postal_code: String,
}

impl ShippingLocation {
    /// A location with codes normalised to upper case, so rules compare exactly.
    pub fn new(country: &str, region: &str, postal_code: &str) -> Self {
        Self {
            country: country.trim().to_ascii_uppercase(),
            region: region.trim().to_ascii_uppercase(),
            postal_code: postal_code.trim().to_owned(),
        }
    }
}

/// How an option's cost is worked out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ShippingRate {
    /// The same cost for any order.
    FlatRate {
        #[serde(rename = "costCents")]
        cost_cents: i64,
    },
    /// A base cost plus a cost per started unit of weight (lbs for an imperial store, kg
    /// for a metric one). Charging per *started* unit (2.1 lbs costs as 3 lbs) is how
    /// carriers price parcels, and keeps the sum in integers.
    ByWeight {
        #[serde(rename = "baseCents")]
        base_cents: i64,
        #[serde(rename = "perUnitCents")]
        per_unit_cents: i64,
    },
}

/// A shipping option the store offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingOption {
    pub id: String,
    pub name: String,
    pub rate: ShippingRate,
}

impl ShippingOption {
    /// The cost of shipping a cart of `weight_thousandths` (thousandths of the store's
    /// weight unit). Costs are never negative: a misconfigured negative rate counts as 0.
    pub fn cost_cents(&self, weight_thousandths: u64) -> i64 {
        let cost = match self.rate {
            ShippingRate::FlatRate { cost_cents } => cost_cents,
            ShippingRate::ByWeight {
                base_cents,
                per_unit_cents,
            } => {
                let started_units = weight_thousandths.div_ceil(1000);
                let units = i64::try_from(started_units).unwrap_or(i64::MAX);
                base_cents.saturating_add(per_unit_cents.saturating_mul(units))
            }
        };
        cost.max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_weight() -> ShippingOption {
        ShippingOption {
            id: "parcel".into(),
            name: "Parcel".into(),
            rate: ShippingRate::ByWeight {
                base_cents: 500,
                per_unit_cents: 150,
            },
        }
    }

    #[test]
    fn weight_is_charged_per_started_unit() {
        let option = by_weight();
        assert_eq!(option.cost_cents(0), 500);
        assert_eq!(option.cost_cents(1), 650);
        assert_eq!(option.cost_cents(1000), 650);
        assert_eq!(option.cost_cents(2100), 950);
    }

    #[test]
    fn flat_rate_ignores_weight_and_never_goes_negative() {
        let flat = ShippingOption {
            id: "flat".into(),
            name: "Flat".into(),
            rate: ShippingRate::FlatRate { cost_cents: 799 },
        };
        assert_eq!(flat.cost_cents(123_456), 799);
        let broken = ShippingOption {
            rate: ShippingRate::FlatRate { cost_cents: -5 },
            ..flat
        };
        assert_eq!(broken.cost_cents(0), 0);
    }
}
