//! Publication dates as visitors read them ("March 3, 2026") and as machines do (`2026-03-03`).

use time::OffsetDateTime;

/// A calendar date ready for a `<time>` element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DisplayDate {
    /// The `datetime` attribute, `YYYY-MM-DD`.
    pub(crate) iso: String,
    /// What the visitor reads.
    pub(crate) text: String,
}

/// The UTC calendar date of a time in milliseconds since the Unix epoch, written the US
/// English way (the pages of one shopper: orders, subscriptions, contributions).
pub(crate) fn display_date(epoch_millis: i64) -> Option<DisplayDate> {
    display_date_in(epoch_millis, vitrine_core::languages::DEFAULT_LOCALE)
}

/// The UTC calendar date of a time in milliseconds since the Unix epoch, written as `locale`
/// writes dates (CLDR through ICU4X: "March 3, 2026", "3 mars 2026"); the `<time datetime>`
/// attribute carries the exact date. `None` for times outside the calendar's range.
pub(crate) fn display_date_in(epoch_millis: i64, locale: &str) -> Option<DisplayDate> {
    let date = OffsetDateTime::from_unix_timestamp(epoch_millis.div_euclid(1000))
        .ok()?
        .date();
    let tag = vitrine_core::languages::LanguageTag::parse(locale).unwrap_or_default();
    let text = vitrine_core::languages::format_date(
        &tag,
        date.year(),
        u8::from(date.month()),
        date.day(),
    )?;
    Some(DisplayDate {
        iso: format!(
            "{:04}-{:02}-{:02}",
            date.year(),
            u8::from(date.month()),
            date.day()
        ),
        text,
    })
}

/// The exact UTC time of `epoch_millis` to the second, `YYYY-MM-DDTHH:MM:SSZ`, for a `<time
/// datetime>` the browser turns into a relative time. `None` for times outside the calendar.
pub(crate) fn instant_iso(epoch_millis: i64) -> Option<String> {
    let at = OffsetDateTime::from_unix_timestamp(epoch_millis.div_euclid(1000)).ok()?;
    Some(format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_like_march_3_2026() {
        // 2026-03-03T12:00:00Z
        let date = display_date(1_772_539_200_000).unwrap();
        assert_eq!(date.text, "March 3, 2026");
        assert_eq!(date.iso, "2026-03-03");
    }

    #[test]
    fn dates_follow_the_page_locale() {
        assert_eq!(
            display_date_in(1_772_539_200_000, "fr-FR").unwrap().text,
            "3 mars 2026"
        );
        assert_eq!(
            display_date_in(1_772_539_200_000, "en-GB").unwrap().text,
            "3 March 2026"
        );
    }

    #[test]
    fn instants_are_exact_to_the_second_in_utc() {
        assert_eq!(
            instant_iso(1_772_539_200_999).as_deref(),
            Some("2026-03-03T12:00:00Z")
        );
        assert_eq!(instant_iso(-1).as_deref(), Some("1969-12-31T23:59:59Z"));
        assert_eq!(instant_iso(i64::MAX), None);
    }

    #[test]
    fn times_before_1970_and_out_of_range_are_handled() {
        assert_eq!(display_date(-1).unwrap().iso, "1969-12-31");
        assert_eq!(display_date(i64::MAX), None);
    }
}
