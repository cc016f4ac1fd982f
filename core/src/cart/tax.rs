//! Tax rules chosen by the shipping location.

use serde::{Deserialize, Serialize};

use super::shipping::ShippingLocation;

/// A tax the store charges on orders shipped to a country, or to one region of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaxRule {
    pub name: String,
    /// ISO 3166-1 alpha-2 country code, upper case.
    pub country: String,
    /// Region code; empty means the whole country.
    #[serde(default)]
    pub region: String,
    /// The rate in basis points (hundredths of a percent): 8.25 % is 825.
    pub rate_basis_points: i64,
    /// Whether the shipping cost is taxed too, as some jurisdictions require.
    #[serde(default)]
    pub applies_to_shipping: bool,
}

impl TaxRule {
    /// Whether this rule taxes an order shipped to `location`.
    pub fn applies_to(&self, location: &ShippingLocation) -> bool {
        self.country.eq_ignore_ascii_case(&location.country)
            && (self.region.is_empty() || self.region.eq_ignore_ascii_case(&location.region))
    }
}

/// The rules that apply to a location, in the store's order. Without a location no tax is
/// charged yet: the shopper has not said where the order goes.
pub fn applicable_rules(rules: &[TaxRule], location: Option<&ShippingLocation>) -> Vec<TaxRule> {
    match location {
        Some(location) => rules
            .iter()
            .filter(|rule| rule.applies_to(location))
            .cloned()
            .collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(country: &str, region: &str) -> TaxRule {
        TaxRule {
            name: format!("{country}-{region}"),
            country: country.into(),
            region: region.into(),
            rate_basis_points: 500,
            applies_to_shipping: false,
        }
    }

    #[test]
    fn rules_match_country_and_region() {
        let rules = [rule("US", ""), rule("US", "NY"), rule("GB", "")];
        let ny = ShippingLocation::new("us", "ny", "10001");
        let names: Vec<_> = applicable_rules(&rules, Some(&ny))
            .into_iter()
            .map(|rule| rule.name)
            .collect();
        assert_eq!(names, ["US-", "US-NY"]);
        let ca = ShippingLocation::new("US", "CA", "94105");
        assert_eq!(applicable_rules(&rules, Some(&ca)).len(), 1);
        assert!(applicable_rules(&rules, None).is_empty());
    }
}
