//! What the checkout form collects: the contact email, the shipping address (with the US zip
//! rule of the forms), the shipping option, the card and a gift card's code, each checked with
//! a message for the field that is wrong.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::payment::CardDetails;
use crate::cart::{ShippingLocation, Timestamp};
use crate::forms::messages::{ZIP_INVALID, email_invalid, required};
use crate::forms::validation::{is_valid_email, is_valid_us_zip, names_united_states};
use crate::gift_cards::{GIFT_CARD_CODE_INVALID, GiftCardCode};

/// The checkout form as posted, every field as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckoutForm {
    pub email: String,
    pub name: String,
    pub address_line1: String,
    pub address_line2: String,
    pub city: String,
    pub region: String,
    pub postal_code: String,
    pub country: String,
    pub shipping_option: String,
    pub card_number: String,
    pub card_expiry: String,
    pub card_cvc: String,
    /// A gift card to pay with, as typed; empty when none.
    pub gift_card_code: String,
}

/// Where an order is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingAddress {
    pub name: String,
    pub line1: String,
    #[serde(default)]
    pub line2: String,
    pub city: String,
    #[serde(default)]
    pub region: String,
    pub postal_code: String,
    /// ISO 3166-1 alpha-2, upper case.
    pub country: String,
}

impl ShippingAddress {
    /// The location tax and shipping rules read.
    pub fn location(&self) -> ShippingLocation {
        ShippingLocation::new(&self.country, &self.region, &self.postal_code)
    }

    /// The address with what names a person or a home removed: the name, the street lines,
    /// the city and the postal code. The region and the country stay, because the tax
    /// charged on the order was worked out from them and the books must show why.
    pub fn erased(&self) -> Self {
        Self {
            name: String::new(),
            line1: String::new(),
            line2: String::new(),
            city: String::new(),
            region: self.region.clone(),
            postal_code: String::new(),
            country: self.country.clone(),
        }
    }
}

/// The checked checkout form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutDetails {
    pub email: String,
    pub address: Option<ShippingAddress>,
    pub shipping_option: Option<String>,
    /// None when nothing is to be paid.
    pub card: Option<CardDetails>,
    /// The gift card to pay with, when one was typed.
    pub gift_card_code: Option<GiftCardCode>,
}

/// A message per form field name (`email`, `postalCode`, `cardNumber`, ...).
pub type CheckoutFieldErrors = BTreeMap<&'static str, String>;

/// What the cart needs from the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckoutNeeds {
    pub shipping: bool,
    pub payment: bool,
}

/// Message for a card number that is not one (our text; the specification shows none).
pub const CARD_NUMBER_INVALID: &str = "Card number is not valid.";
/// Message for an expiry date that is malformed or past (our text).
pub const CARD_EXPIRY_INVALID: &str = "Expiry date must be a month that has not passed, as MM/YY.";
/// Message for a security code that is not 3 or 4 digits (our text).
pub const CARD_CVC_INVALID: &str = "Security code must be 3 or 4 digits.";
/// Message for a country that is not a two-letter code (our text).
pub const COUNTRY_INVALID: &str = "Country must be a two-letter code, such as US or GB.";
/// Message when a cart that ships has no option chosen (our text).
pub const SHIPPING_OPTION_REQUIRED: &str = "Choose a shipping option.";

impl CheckoutForm {
    /// Checks the form for a cart with `needs`, at `now` (for the card's expiry).
    pub fn check(
        &self,
        needs: CheckoutNeeds,
        now: Timestamp,
    ) -> Result<CheckoutDetails, CheckoutFieldErrors> {
        let mut errors = CheckoutFieldErrors::new();
        let email = self.email.trim();
        if email.is_empty() {
            errors.insert("email", required("Email"));
        } else if !is_valid_email(email) {
            errors.insert("email", email_invalid());
        }
        let address = needs.shipping.then(|| self.address(&mut errors));
        let shipping_option = needs
            .shipping
            .then(|| self.shipping_option.trim().to_owned());
        if shipping_option.as_deref() == Some("") {
            errors.insert("shippingOption", SHIPPING_OPTION_REQUIRED.to_owned());
        }
        let card = needs.payment.then(|| self.card(&mut errors, now));
        let gift_card_code = match self.gift_card_code.trim() {
            "" => None,
            typed => GiftCardCode::parse(typed)
                .inspect_err(|_| {
                    errors.insert("giftCardCode", GIFT_CARD_CODE_INVALID.to_owned());
                })
                .ok(),
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(CheckoutDetails {
            email: email.to_owned(),
            address,
            shipping_option,
            card: card.flatten(),
            gift_card_code,
        })
    }

    fn address(&self, errors: &mut CheckoutFieldErrors) -> ShippingAddress {
        let required_fields = [
            ("name", "Name", &self.name),
            ("addressLine1", "Address", &self.address_line1),
            ("city", "City", &self.city),
            ("postalCode", "Postal code", &self.postal_code),
            ("country", "Country", &self.country),
        ];
        for (field, title, value) in required_fields {
            if value.trim().is_empty() {
                errors.insert(field, required(title));
            }
        }
        let country = self.country.trim();
        let country_code = if names_united_states(country) {
            "US".to_owned()
        } else {
            country.to_ascii_uppercase()
        };
        let is_code =
            country_code.len() == 2 && country_code.bytes().all(|b| b.is_ascii_uppercase());
        if !country.is_empty() && !is_code {
            errors.insert("country", COUNTRY_INVALID.to_owned());
        }
        let postal_code = self.postal_code.trim();
        if country_code == "US" && !postal_code.is_empty() && !is_valid_us_zip(postal_code) {
            errors.insert("postalCode", ZIP_INVALID.to_owned());
        }
        ShippingAddress {
            name: self.name.trim().to_owned(),
            line1: self.address_line1.trim().to_owned(),
            line2: self.address_line2.trim().to_owned(),
            city: self.city.trim().to_owned(),
            region: self.region.trim().to_ascii_uppercase(),
            postal_code: postal_code.to_owned(),
            country: country_code,
        }
    }

    /// Checks the card fields alone, as the page that updates a subscription's card asks
    /// for nothing else.
    pub fn check_card(&self, now: Timestamp) -> Result<CardDetails, CheckoutFieldErrors> {
        let mut errors = CheckoutFieldErrors::new();
        self.card(&mut errors, now).ok_or(errors)
    }

    fn card(&self, errors: &mut CheckoutFieldErrors, now: Timestamp) -> Option<CardDetails> {
        let number = CardDetails::normalise_number(&self.card_number);
        let expiry = parse_expiry(&self.card_expiry);
        let cvc = self.card_cvc.trim();
        let mut ok = true;
        if !CardDetails::is_valid_number(&number) {
            errors.insert("cardNumber", CARD_NUMBER_INVALID.to_owned());
            ok = false;
        }
        let (year, month) = year_month(now);
        match expiry {
            Some((y, m)) if (y, m) >= (year, month) => {}
            _ => {
                errors.insert("cardExpiry", CARD_EXPIRY_INVALID.to_owned());
                ok = false;
            }
        }
        if !(3..=4).contains(&cvc.len()) || !cvc.bytes().all(|b| b.is_ascii_digit()) {
            errors.insert("cardCvc", CARD_CVC_INVALID.to_owned());
            ok = false;
        }
        let (expiry_year, expiry_month) = expiry.unwrap_or_default();
        ok.then(|| CardDetails {
            number,
            expiry_month,
            expiry_year,
            cvc: cvc.to_owned(),
        })
    }
}

/// `MM/YY` (or `MM / YYYY`) as (year, month).
fn parse_expiry(text: &str) -> Option<(i64, u8)> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (month, year) = compact.split_once('/')?;
    let month: u8 = month.parse().ok().filter(|m| (1..=12).contains(m))?;
    let year: i64 = match year.len() {
        2 => 2000 + year.parse::<i64>().ok()?,
        4 => year.parse().ok()?,
        _ => return None,
    };
    Some((year, month))
}

/// The UTC (year, month) of a timestamp (days to civil date, after Howard Hinnant).
fn year_month(now: Timestamp) -> (i64, u8) {
    let days = now.millis().div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, u8::try_from(month).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-21T14:00:00Z
    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    fn filled() -> CheckoutForm {
        CheckoutForm {
            email: "shopper@example.com".into(),
            name: "Ada Shopper".into(),
            address_line1: "1 Main St".into(),
            city: "Boston".into(),
            region: "ma".into(),
            postal_code: "02139".into(),
            country: "United States".into(),
            shipping_option: "standard".into(),
            card_number: "4242 4242 4242 4242".into(),
            card_expiry: "12/30".into(),
            card_cvc: "123".into(),
            ..CheckoutForm::default()
        }
    }

    const ALL: CheckoutNeeds = CheckoutNeeds {
        shipping: true,
        payment: true,
    };

    #[test]
    fn a_complete_form_gives_the_details_with_codes_normalised() {
        let details = filled().check(ALL, NOW).unwrap();
        let address = details.address.unwrap();
        assert_eq!(
            (address.country.as_str(), address.region.as_str()),
            ("US", "MA")
        );
        assert_eq!(details.card.unwrap().number, "4242424242424242");
        assert_eq!(details.shipping_option.as_deref(), Some("standard"));
    }

    #[test]
    fn each_wrong_field_gets_its_own_message() {
        let form = CheckoutForm {
            email: "not-an-email".into(),
            postal_code: "0213".into(),
            card_number: "4242 4242 4242 4241".into(),
            card_expiry: "10/26".into(),
            card_cvc: "12".into(),
            shipping_option: String::new(),
            city: " ".into(),
            ..filled()
        };
        let errors = form.check(ALL, NOW).unwrap_err();
        assert_eq!(errors["email"], email_invalid());
        assert_eq!(errors["postalCode"], "Zip code must be exactly 5 digits.");
        assert_eq!(errors["cardNumber"], CARD_NUMBER_INVALID);
        assert_eq!(
            errors["cardExpiry"], CARD_EXPIRY_INVALID,
            "October 2026 has passed"
        );
        assert_eq!(errors["cardCvc"], CARD_CVC_INVALID);
        assert_eq!(errors["shippingOption"], SHIPPING_OPTION_REQUIRED);
        assert_eq!(errors["city"], "City is required.");
        assert_eq!(errors.len(), 7, "{errors:?}");
    }

    #[test]
    fn the_zip_rule_applies_to_the_united_states_only_and_the_month_of_now_is_valid() {
        let form = CheckoutForm {
            country: "GB".into(),
            postal_code: "SW1A 1AA".into(),
            card_expiry: "11/2026".into(),
            ..filled()
        };
        assert!(form.check(ALL, NOW).is_ok());
    }

    #[test]
    fn a_digital_free_order_needs_only_an_email() {
        let form = CheckoutForm {
            email: "a@example.com".into(),
            ..CheckoutForm::default()
        };
        let none = CheckoutNeeds {
            shipping: false,
            payment: false,
        };
        let details = form.check(none, NOW).unwrap();
        assert_eq!((details.address, details.card), (None, None));
    }

    #[test]
    fn a_gift_card_code_is_optional_and_read_as_typed() {
        assert_eq!(filled().check(ALL, NOW).unwrap().gift_card_code, None);
        let typed = CheckoutForm {
            gift_card_code: " 04hm asw9 nf6y yo93 ".into(),
            ..filled()
        };
        let code = typed.check(ALL, NOW).unwrap().gift_card_code.unwrap();
        assert_eq!(code.to_string(), "04HM-ASW9-NF6Y-Y093");
        let short = CheckoutForm {
            gift_card_code: "04HM-ASW9".into(),
            ..filled()
        };
        let errors = short.check(ALL, NOW).unwrap_err();
        assert_eq!(errors["giftCardCode"], GIFT_CARD_CODE_INVALID);
    }

    #[test]
    fn year_month_reads_the_utc_calendar() {
        assert_eq!(year_month(Timestamp(0)), (1970, 1));
        assert_eq!(year_month(NOW), (2026, 11));
        assert_eq!(
            year_month(Timestamp(951_782_400_000)),
            (2000, 2),
            "2000-02-29"
        );
    }
}
