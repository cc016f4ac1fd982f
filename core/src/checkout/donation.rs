//! Donations (page type 203): the donation page a donation block leads to, the amounts a
//! donor may give, and the donation form, checked with a message for each field that is
//! wrong. Amounts are whole minor units of the store's currency.

use super::details::{CheckoutDetails, CheckoutFieldErrors, CheckoutForm, CheckoutNeeds};
use super::payment::CardDetails;
use crate::cart::Timestamp;
use crate::forms::messages::required;
use crate::money::{Currency, FormatOptions, Locale, Money, format};
use crate::site::DonationBlock;

/// What a donation page offers: the donation block `id` names, in the store's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DonationCampaign {
    /// The donation block's id, which is the `donatePageId` of `/checkout/donate`.
    pub id: String,
    pub title: String,
    pub description: String,
    pub suggested_amounts: Vec<i64>,
    pub minimum_amount: i64,
    pub maximum_amount: i64,
    pub currency: Currency,
    pub thank_you: String,
}

impl DonationCampaign {
    pub fn from_block(id: &str, block: &DonationBlock, currency: Currency) -> Self {
        Self {
            id: id.to_owned(),
            title: block.title.clone(),
            description: block.description.clone(),
            suggested_amounts: block.suggested_amounts.clone(),
            minimum_amount: block.minimum_amount,
            maximum_amount: block.maximum_amount,
            currency,
            thank_you: block.thank_you.clone(),
        }
    }

    /// "Enter an amount from €1.00 to €10,000.00." (our text), with this page's limits.
    pub fn out_of_range_message(&self) -> String {
        let text = |amount| {
            format(
                Money::new(amount, self.currency),
                &Locale::default(),
                FormatOptions::default(),
            )
        };
        format!(
            "Enter an amount from {} to {}.",
            text(self.minimum_amount),
            text(self.maximum_amount)
        )
    }
}

/// The value of the amount choice that means "my own amount".
pub const OTHER_AMOUNT: &str = "other";

/// Message when no amount was chosen or typed (our text).
pub const AMOUNT_REQUIRED: &str = "Choose an amount, or enter your own.";

/// Message for a typed amount that is not a number of the currency (our text).
pub fn amount_invalid(currency: Currency) -> &'static str {
    if currency.fraction_digits() == 0 {
        "Enter the amount as a whole number, such as 500."
    } else {
        "Enter the amount as a number, such as 25 or 25.50."
    }
}

/// The donation form as posted, every field as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DonationForm {
    /// A suggested amount in minor units, or [`OTHER_AMOUNT`].
    pub amount: String,
    /// The donor's own amount in major units ("25", "25.50" or "25,50").
    pub other_amount: String,
    pub name: String,
    pub email: String,
    pub card_number: String,
    pub card_expiry: String,
    pub card_cvc: String,
}

/// The checked donation form without the card, for a donor who pays in the payment
/// provider's own fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DonorDetails {
    pub amount_minor: i64,
    pub name: String,
    pub email: String,
}

/// The checked donation form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DonationDetails {
    pub amount_minor: i64,
    pub name: String,
    pub email: String,
    pub card: CardDetails,
}

impl DonationForm {
    /// Checks the form for `campaign` at `now` (for the card's expiry). The email and card
    /// follow the checkout form's rules and messages.
    pub fn check(
        &self,
        campaign: &DonationCampaign,
        now: Timestamp,
    ) -> Result<DonationDetails, CheckoutFieldErrors> {
        match self.checked(campaign, now, true)? {
            (donor, Some(card)) => Ok(DonationDetails {
                amount_minor: donor.amount_minor,
                name: donor.name,
                email: donor.email,
                card,
            }),
            (_, None) => Err(CheckoutFieldErrors::new()),
        }
    }

    /// Checks the form for `campaign` without a card, for a donor who pays in the payment
    /// provider's own fields: the card fields are not read.
    pub fn check_without_card(
        &self,
        campaign: &DonationCampaign,
    ) -> Result<DonorDetails, CheckoutFieldErrors> {
        self.checked(campaign, Timestamp(0), false)
            .map(|(donor, _)| donor)
    }

    fn checked(
        &self,
        campaign: &DonationCampaign,
        now: Timestamp,
        card: bool,
    ) -> Result<(DonorDetails, Option<CardDetails>), CheckoutFieldErrors> {
        let contact_and_card = CheckoutForm {
            email: self.email.clone(),
            card_number: self.card_number.clone(),
            card_expiry: self.card_expiry.clone(),
            card_cvc: self.card_cvc.clone(),
            ..CheckoutForm::default()
        }
        .check(
            CheckoutNeeds {
                shipping: false,
                payment: card,
            },
            now,
        );
        let mut errors = contact_and_card.clone().err().unwrap_or_default();
        let amount = self.amount(campaign);
        if let Err(message) = &amount {
            errors.insert("amount", message.clone());
        }
        let name = self.name.trim();
        if name.is_empty() {
            errors.insert("name", required("Name"));
        }
        match (amount, contact_and_card) {
            (Ok(amount_minor), Ok(CheckoutDetails { email, card, .. })) if errors.is_empty() => {
                Ok((
                    DonorDetails {
                        amount_minor,
                        name: name.to_owned(),
                        email,
                    },
                    card,
                ))
            }
            _ => Err(errors),
        }
    }

    /// The chosen suggestion, or the donor's own amount within the page's limits.
    fn amount(&self, campaign: &DonationCampaign) -> Result<i64, String> {
        let choice = self.amount.trim();
        let suggested = choice
            .parse::<i64>()
            .ok()
            .filter(|amount| campaign.suggested_amounts.contains(amount));
        if let Some(amount) = suggested {
            return Ok(amount);
        }
        let typed = self.other_amount.trim();
        let wants_other = choice == OTHER_AMOUNT || choice.is_empty();
        if !wants_other || typed.is_empty() {
            return Err(AMOUNT_REQUIRED.to_owned());
        }
        let amount = parse_amount(typed, campaign.currency)
            .ok_or_else(|| amount_invalid(campaign.currency).to_owned())?;
        if (campaign.minimum_amount..=campaign.maximum_amount).contains(&amount) {
            Ok(amount)
        } else {
            Err(campaign.out_of_range_message())
        }
    }
}

/// An amount typed in major units as minor units: digits, then optionally `.` or `,` and at
/// most the currency's fraction digits ("25", "25.5", "25,50"; "500" for yen). Thousands
/// separators, signs and symbols are refused, since "1,000" could mean either.
pub fn parse_amount(text: &str, currency: Currency) -> Option<i64> {
    let digits = currency.fraction_digits() as usize;
    let (whole, fraction) = match text.find(['.', ',']) {
        Some(at) => (&text[..at], &text[at + 1..]),
        None => (text, ""),
    };
    let all_digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    let shape_ok = !whole.is_empty()
        && whole.len() <= 12
        && all_digits(whole)
        && all_digits(fraction)
        && (text.len() == whole.len() || (1..=digits).contains(&fraction.len()));
    if !shape_ok {
        return None;
    }
    let scale = currency.minor_units_per_major();
    let whole: i64 = whole.parse().ok()?;
    let fraction: i64 = if fraction.is_empty() {
        0
    } else {
        let padded = format!("{fraction:0<digits$}");
        padded.parse().ok()?
    };
    whole.checked_mul(scale)?.checked_add(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::{CARD_NUMBER_INVALID, TEST_CARD_SUCCEEDS};

    // 2026-11-21T14:00:00Z
    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    fn campaign(currency: Currency) -> DonationCampaign {
        DonationCampaign {
            id: "kiln-fund".into(),
            title: "Support the community kiln".into(),
            description: String::new(),
            suggested_amounts: vec![1000, 2500, 5000],
            minimum_amount: 100,
            maximum_amount: 100_000,
            currency,
            thank_you: "Thank you.".into(),
        }
    }

    fn form(amount: &str, other: &str) -> DonationForm {
        DonationForm {
            amount: amount.into(),
            other_amount: other.into(),
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            card_number: "4242 4242 4242 4242".into(),
            card_expiry: "12/30".into(),
            card_cvc: "123".into(),
        }
    }

    fn amount_of(amount: &str, other: &str) -> Result<i64, String> {
        form(amount, other)
            .check(&campaign(Currency::Eur), NOW)
            .map(|details| details.amount_minor)
            .map_err(|errors| errors.get("amount").cloned().unwrap_or_default())
    }

    #[test]
    fn a_suggested_amount_is_taken_as_offered() {
        assert_eq!(amount_of("2500", ""), Ok(2500));
        // A suggestion wins over a typed amount the donor then left behind.
        assert_eq!(amount_of("5000", "3"), Ok(5000));
        // A value that is not among the suggestions is no choice at all.
        assert_eq!(amount_of("2400", ""), Err(AMOUNT_REQUIRED.to_owned()));
        assert_eq!(amount_of("", ""), Err(AMOUNT_REQUIRED.to_owned()));
        assert_eq!(amount_of("other", " "), Err(AMOUNT_REQUIRED.to_owned()));
    }

    #[test]
    fn an_own_amount_must_lie_within_the_limits_inclusive() {
        let range = "Enter an amount from €1.00 to €1,000.00.";
        assert_eq!(amount_of("other", "1"), Ok(100));
        assert_eq!(amount_of("other", "1000"), Ok(100_000));
        assert_eq!(amount_of("other", "0.99"), Err(range.to_owned()));
        assert_eq!(amount_of("other", "1000.01"), Err(range.to_owned()));
        assert_eq!(amount_of("other", "0"), Err(range.to_owned()));
        assert_eq!(amount_of("", "12,5"), Ok(1250));
    }

    #[test]
    fn own_amounts_are_numbers_of_the_currency() {
        let eur = Currency::Eur;
        assert_eq!(parse_amount("25", eur), Some(2500));
        assert_eq!(parse_amount("25.5", eur), Some(2550));
        assert_eq!(parse_amount("25,05", eur), Some(2505));
        for refused in [
            "",
            "25.",
            ".5",
            "25.505",
            "-5",
            "+5",
            "1,000.00",
            "€25",
            "25 ",
            "2 5",
            "1e3",
            "9999999999999",
        ] {
            assert_eq!(parse_amount(refused, eur), None, "{refused:?}");
        }
        assert_eq!(parse_amount("500", Currency::Jpy), Some(500));
        assert_eq!(parse_amount("500.5", Currency::Jpy), None);
        assert_eq!(
            amount_of("other", "ten"),
            Err(amount_invalid(eur).to_owned())
        );
    }

    #[test]
    fn the_donor_card_and_email_follow_the_checkout_rules() {
        let details = form("1000", "")
            .check(&campaign(Currency::Eur), NOW)
            .unwrap();
        assert_eq!(details.card.number, TEST_CARD_SUCCEEDS);
        assert_eq!(details.name, "Ada Lovelace");
        let errors = DonationForm {
            name: " ".into(),
            email: "ada".into(),
            card_number: "4242".into(),
            ..form("", "")
        }
        .check(&campaign(Currency::Eur), NOW)
        .unwrap_err();
        let fields: Vec<&str> = errors.keys().copied().collect();
        assert_eq!(fields, ["amount", "cardNumber", "email", "name"]);
        assert_eq!(errors["cardNumber"], CARD_NUMBER_INVALID);
        assert_eq!(errors["name"], "Name is required.");
    }
}
