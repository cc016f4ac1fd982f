//! The day a gift card's mail goes to its recipient, as the buyer chose it on the gift card
//! checkout page: none sends the mail as soon as the order is placed.
//!
//! A site has no time zone of its own, so the mail is due at 08:00 UTC of the chosen day:
//! that instant falls on the same calendar day from UTC−8 to UTC+14, which covers the
//! Americas' west coast to the Pacific islands, so nearly every recipient gets the card on
//! the day the buyer picked. The earliest day accepted is yesterday in UTC, because for a
//! buyer east of Greenwich "today" may already be tomorrow's date in UTC's eyes and the
//! other way round; a day already begun is simply sent at once.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::{Date, Duration, Month, OffsetDateTime, Time};

use crate::cart::Timestamp;

/// The hour (UTC) at which a card chosen for a day is mailed.
pub const SEND_HOUR_UTC: u8 = 8;
/// How far ahead a send date may be: a year.
pub const MAX_DAYS_AHEAD: i64 = 365;

/// What a send date that is not a date reads (our text).
pub const SEND_DATE_INVALID: &str = "Enter the date as year-month-day, such as 2026-12-24.";
/// What a send date in the past reads (our text).
pub const SEND_DATE_PAST: &str = "Choose today or a later date.";
/// What a send date too far ahead reads (our text).
pub const SEND_DATE_TOO_LATE: &str = "Choose a date within a year from today.";
/// What a send date without an address to send to reads (our text).
pub const SEND_DATE_NEEDS_EMAIL: &str =
    "Add the recipient’s email so we can send the card on this date.";

/// `YYYY-MM-DD` as a calendar date; none for anything else.
fn parse_iso(text: &str) -> Option<Date> {
    let mut parts = text.split('-');
    let (year, month, day) = (parts.next()?, parts.next()?, parts.next()?);
    fn digits(part: &str, len: usize) -> Option<&str> {
        (part.len() == len && part.bytes().all(|b| b.is_ascii_digit())).then_some(part)
    }
    if parts.next().is_some() {
        return None;
    }
    let year: i32 = digits(year, 4)?.parse().ok()?;
    let month = Month::try_from(digits(month, 2)?.parse::<u8>().ok()?).ok()?;
    let day: u8 = digits(day, 2)?.parse().ok()?;
    Date::from_calendar_date(year, month, day).ok()
}

/// A day on which to mail a gift card to its recipient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GiftCardSendDate(Date);

impl GiftCardSendDate {
    /// The date typed into the form (`YYYY-MM-DD`, as a date input sends it), checked against
    /// `now`: none when the field is empty.
    pub fn parse(text: &str, now: Timestamp) -> Result<Option<Self>, &'static str> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let date = parse_iso(text).ok_or(SEND_DATE_INVALID)?;
        let today = OffsetDateTime::from_unix_timestamp(now.millis().div_euclid(1000))
            .map_err(|_| SEND_DATE_INVALID)?
            .date();
        if date < today - Duration::days(1) {
            return Err(SEND_DATE_PAST);
        }
        if date > today + Duration::days(MAX_DAYS_AHEAD) {
            return Err(SEND_DATE_TOO_LATE);
        }
        Ok(Some(Self(date)))
    }

    /// When the mail is due: 08:00 UTC of the day.
    pub fn send_at(self) -> Timestamp {
        let at = self
            .0
            .with_time(Time::from_hms(SEND_HOUR_UTC, 0, 0).unwrap_or(Time::MIDNIGHT))
            .assume_utc();
        Timestamp(at.unix_timestamp() * 1000)
    }

    /// The date as a date input shows it: `2026-12-24`.
    pub fn iso(self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            self.0.year(),
            u8::from(self.0.month()),
            self.0.day()
        )
    }

    /// The date as people read it: `24 December 2026`.
    pub fn text(self) -> String {
        format!("{} {} {}", self.0.day(), self.0.month(), self.0.year())
    }
}

impl Serialize for GiftCardSendDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.iso())
    }
}

impl<'de> Deserialize<'de> for GiftCardSendDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_iso(&text)
            .map(Self)
            .ok_or_else(|| serde::de::Error::custom(format!("{text} is not a date")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2026-11-21T14:00:00Z
    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    #[test]
    fn a_date_from_yesterday_to_a_year_ahead_is_accepted_and_due_at_eight_utc() {
        assert_eq!(GiftCardSendDate::parse("  ", NOW), Ok(None));
        let christmas = GiftCardSendDate::parse("2026-12-24", NOW).unwrap().unwrap();
        assert_eq!(christmas.iso(), "2026-12-24");
        assert_eq!(christmas.text(), "24 December 2026");
        // 2026-12-24T08:00:00Z
        assert_eq!(christmas.send_at(), Timestamp(1_798_099_200_000));
        assert!(
            GiftCardSendDate::parse("2026-11-20", NOW)
                .unwrap()
                .is_some()
        );
        assert!(
            GiftCardSendDate::parse("2027-11-21", NOW)
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_date_in_the_past_too_far_ahead_or_not_a_date_is_refused() {
        assert_eq!(
            GiftCardSendDate::parse("2026-11-19", NOW),
            Err(SEND_DATE_PAST)
        );
        assert_eq!(
            GiftCardSendDate::parse("2027-11-22", NOW),
            Err(SEND_DATE_TOO_LATE)
        );
        for typed in ["24/12/2026", "2026-02-30", "tomorrow"] {
            assert_eq!(
                GiftCardSendDate::parse(typed, NOW),
                Err(SEND_DATE_INVALID),
                "{typed}"
            );
        }
    }

    #[test]
    fn a_send_date_is_stored_as_its_iso_text() {
        let date = GiftCardSendDate::parse("2026-12-24", NOW).unwrap().unwrap();
        let json = serde_json::to_string(&date).unwrap();
        assert_eq!(json, "\"2026-12-24\"");
        assert_eq!(
            serde_json::from_str::<GiftCardSendDate>(&json).unwrap(),
            date
        );
    }
}
