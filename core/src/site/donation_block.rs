//! The donation block (type 52): a cause, the amounts a visitor may pick, the limits of an
//! amount of their own, and what the confirmation page says. Its id is the `donatePageId` of
//! `/checkout/donate`, so one block is one donation page.

use serde::{Deserialize, Serialize};

use crate::catalog::MAX_PRICE_CENTS;

/// The most suggested amounts a donation block offers; more would not read as a choice.
pub const MAX_SUGGESTED_AMOUNTS: usize = 6;

/// Why a donation block's amounts were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DonationBlockError {
    #[error(
        "the minimum must be at least 1 and at most the maximum, and the maximum at most {MAX_PRICE_CENTS}; found {minimum} to {maximum}"
    )]
    Limits { minimum: i64, maximum: i64 },
    #[error("suggested amount {0} is outside the minimum and maximum")]
    SuggestionOutOfRange(i64),
    #[error("suggested amount {0} is offered twice")]
    DuplicateSuggestion(i64),
    #[error("at most {MAX_SUGGESTED_AMOUNTS} suggested amounts, found {0}")]
    TooManySuggestions(usize),
}

/// A donation block. Amounts are in minor units of the store's currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DonationBlock {
    pub title: String,
    pub description: String,
    pub button_label: String,
    pub suggested_amounts: Vec<i64>,
    pub minimum_amount: i64,
    pub maximum_amount: i64,
    /// What the contribution confirmed page (204) says after thanking the donor.
    pub thank_you: String,
}

impl DonationBlock {
    /// Checks the amounts: 1 <= minimum <= maximum <= the highest price, and every
    /// suggestion within them, distinct and at most [`MAX_SUGGESTED_AMOUNTS`].
    pub fn check_amounts(&self) -> Result<(), DonationBlockError> {
        let (minimum, maximum) = (self.minimum_amount, self.maximum_amount);
        if minimum < 1 || minimum > maximum || maximum > MAX_PRICE_CENTS {
            return Err(DonationBlockError::Limits { minimum, maximum });
        }
        if self.suggested_amounts.len() > MAX_SUGGESTED_AMOUNTS {
            return Err(DonationBlockError::TooManySuggestions(
                self.suggested_amounts.len(),
            ));
        }
        for (index, &amount) in self.suggested_amounts.iter().enumerate() {
            if !(minimum..=maximum).contains(&amount) {
                return Err(DonationBlockError::SuggestionOutOfRange(amount));
            }
            if self.suggested_amounts[..index].contains(&amount) {
                return Err(DonationBlockError::DuplicateSuggestion(amount));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(suggested: Vec<i64>, minimum: i64, maximum: i64) -> DonationBlock {
        DonationBlock {
            title: "Kiln fund".into(),
            description: String::new(),
            button_label: "Donate".into(),
            suggested_amounts: suggested,
            minimum_amount: minimum,
            maximum_amount: maximum,
            thank_you: String::new(),
        }
    }

    #[test]
    fn amounts_must_lie_within_sound_limits() {
        assert_eq!(block(vec![500, 2500], 100, 100_000).check_amounts(), Ok(()));
        assert_eq!(block(vec![], 1, MAX_PRICE_CENTS).check_amounts(), Ok(()));
        assert!(matches!(
            block(vec![], 0, 100).check_amounts(),
            Err(DonationBlockError::Limits { .. })
        ));
        assert!(matches!(
            block(vec![], 500, 100).check_amounts(),
            Err(DonationBlockError::Limits { .. })
        ));
        assert!(matches!(
            block(vec![], 1, MAX_PRICE_CENTS + 1).check_amounts(),
            Err(DonationBlockError::Limits { .. })
        ));
        assert_eq!(
            block(vec![50], 100, 1000).check_amounts(),
            Err(DonationBlockError::SuggestionOutOfRange(50))
        );
        assert_eq!(
            block(vec![500, 500], 100, 1000).check_amounts(),
            Err(DonationBlockError::DuplicateSuggestion(500))
        );
        assert_eq!(
            block((1..=7).map(|n| n * 100).collect(), 100, 1000).check_amounts(),
            Err(DonationBlockError::TooManySuggestions(7))
        );
    }
}
