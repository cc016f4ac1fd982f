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
    fn times_before_1970_and_out_of_range_are_handled() {
        assert_eq!(display_date(-1).unwrap().iso, "1969-12-31");
        assert_eq!(display_date(i64::MAX), None);
    }
}
