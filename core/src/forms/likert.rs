//! The Likert scale of spec 000 s3: five answers from -2 to 2, each with its label.

use serde::{Deserialize, Serialize};

/// One answer on the scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "i8", into = "i8")]
pub struct LikertAnswer(i8);

/// A value outside -2..=2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a Likert answer is between -2 and 2, not {0}")]
pub struct LikertOutOfRange(pub String);

impl LikertAnswer {
    /// Every answer, from Strongly Disagree to Strongly Agree.
    pub const ALL: [LikertAnswer; 5] = [
        LikertAnswer(-2),
        LikertAnswer(-1),
        LikertAnswer(0),
        LikertAnswer(1),
        LikertAnswer(2),
    ];

    pub fn value(self) -> i8 {
        self.0
    }

    pub fn label(self) -> &'static str {
        match self.0 {
            -2 => "Strongly Disagree",
            -1 => "Disagree",
            0 => "Neutral",
            1 => "Agree",
            _ => "Strongly Agree",
        }
    }

    /// Reads the submitted text of an answer (`"-2"` to `"2"`).
    pub fn parse(text: &str) -> Result<Self, LikertOutOfRange> {
        text.trim()
            .parse::<i8>()
            .ok()
            .and_then(|value| Self::try_from(value).ok())
            .ok_or_else(|| LikertOutOfRange(text.to_owned()))
    }
}

impl TryFrom<i8> for LikertAnswer {
    type Error = LikertOutOfRange;

    fn try_from(value: i8) -> Result<Self, Self::Error> {
        if (-2..=2).contains(&value) {
            Ok(Self(value))
        } else {
            Err(LikertOutOfRange(value.to_string()))
        }
    }
}

impl From<LikertAnswer> for i8 {
    fn from(answer: LikertAnswer) -> Self {
        answer.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_answers_carry_the_spec_labels_in_order() {
        let labels: Vec<_> = LikertAnswer::ALL
            .iter()
            .map(|a| (a.value(), a.label()))
            .collect();
        assert_eq!(
            labels,
            [
                (-2, "Strongly Disagree"),
                (-1, "Disagree"),
                (0, "Neutral"),
                (1, "Agree"),
                (2, "Strongly Agree")
            ]
        );
    }

    #[test]
    fn answers_outside_the_scale_are_refused() {
        assert!(LikertAnswer::parse("3").is_err());
        assert!(LikertAnswer::parse("-3").is_err());
        assert!(LikertAnswer::parse("agree").is_err());
        assert_eq!(LikertAnswer::parse(" -1 ").unwrap().value(), -1);
    }
}
