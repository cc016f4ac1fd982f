//! Calendar dates as a locale writes them ("March 3, 2026", "3 mars 2026"), from CLDR data
//! through ICU4X's date formatter.

use icu_calendar::Date;
use icu_calendar::cal::Gregorian;
use icu_datetime::FixedCalendarDateTimeFormatter;
use icu_datetime::fieldsets::YMD;

use super::LanguageTag;

/// The Gregorian date `year`-`month`-`day` written out in full for `locale`; `None` for a date
/// that does not exist.
pub fn format_date(locale: &LanguageTag, year: i32, month: u8, day: u8) -> Option<String> {
    let date = Date::try_new_gregorian(year, month, day).ok()?;
    let formatter = FixedCalendarDateTimeFormatter::<Gregorian, YMD>::try_new(
        (&locale.locale()).into(),
        YMD::long(),
    )
    .ok()?;
    Some(formatter.format(&date).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_the_locale() {
        let tag = |text| LanguageTag::parse(text).unwrap();
        assert_eq!(
            format_date(&tag("en-US"), 2026, 3, 3).unwrap(),
            "March 3, 2026"
        );
        assert_eq!(
            format_date(&tag("fr-FR"), 2026, 3, 3).unwrap(),
            "3 mars 2026"
        );
        assert_eq!(
            format_date(&tag("de-DE"), 2026, 3, 3).unwrap(),
            "3. März 2026"
        );
        assert_eq!(format_date(&tag("en-US"), 2026, 2, 30), None);
    }
}
