//! Text conversions the bundle needs: Markdown to sanitised HTML, TOML dates to timestamps,
//! and the derivation of stable ids from slugs.

use toml::value::{Datetime, Offset};

/// Renders Markdown (raw HTML allowed) and sanitises the result like any owner HTML.
pub(crate) use crate::site::markdown_html as markdown;

/// Milliseconds since the Unix epoch of a TOML date or date-time. A date alone is midnight
/// and a time without an offset is UTC, so a bundle imports the same wherever it is run.
pub(crate) fn epoch_millis(datetime: &Datetime) -> Result<i64, String> {
    let Some(date) = datetime.date else {
        return Err(format!(
            "expected a date such as 2025-03-14 or a date and time such as \
             2025-03-14T09:30:00Z, found {datetime}"
        ));
    };
    let days = days_from_civil(
        i64::from(date.year),
        i64::from(date.month),
        i64::from(date.day),
    );
    let (seconds, nanos) = match datetime.time {
        Some(time) => (
            i64::from(time.hour) * 3600
                + i64::from(time.minute) * 60
                + i64::from(time.second.unwrap_or(0)),
            i64::from(time.nanosecond.unwrap_or(0)),
        ),
        None => (0, 0),
    };
    let offset_minutes = match datetime.offset {
        Some(Offset::Custom { minutes }) => i64::from(minutes),
        Some(Offset::Z) | None => 0,
    };
    let seconds = days * 86_400 + seconds - offset_minutes * 60;
    Ok(seconds * 1000 + nanos / 1_000_000)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// An id made of `parts` joined by '-', or, when that is longer than an id may be, a
/// shortened form with a hash so that it stays unique and stable.
pub(crate) fn derived_id(parts: &[&str], max_len: usize) -> String {
    let joined = parts.join("-");
    if joined.len() <= max_len {
        return joined;
    }
    let hash = format!("{:016x}", fnv1a(joined.as_bytes()));
    let keep = max_len - hash.len() - 1;
    // Ids are ASCII (slugs and id characters), so cutting at a byte index is safe.
    format!("{}-{hash}", joined[..keep].trim_end_matches('-'))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A field id made from a title: lowercase ASCII words joined by '-'.
pub(crate) fn slugify(title: &str) -> String {
    let mut slug = String::new();
    for word in title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
    {
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word.to_ascii_lowercase());
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::*;

    fn millis(text: &str) -> i64 {
        let datetime: Datetime = text.parse().unwrap();
        epoch_millis(&datetime).unwrap()
    }

    #[test]
    fn dates_become_utc_milliseconds() {
        assert_eq!(millis("1970-01-01"), 0);
        assert_eq!(millis("2024-02-29"), 1_709_164_800_000);
        assert_eq!(millis("2024-02-29T01:00:00Z"), 1_709_168_400_000);
        assert_eq!(millis("2024-02-29T01:00:00+01:00"), 1_709_164_800_000);
        assert_eq!(millis("1969-12-31T23:59:59.5Z"), -500);
    }

    #[test]
    fn a_time_alone_is_refused() {
        let time: Datetime = "09:30:00".parse().unwrap();
        assert!(epoch_millis(&time).unwrap_err().ends_with("found 09:30:00"));
    }

    #[test]
    fn markdown_is_rendered_and_sanitised() {
        assert_eq!(
            markdown("Hello *kiln*\n\n<script>x()</script>").as_str(),
            "<p>Hello <em>kiln</em></p>\n"
        );
    }

    #[test]
    fn long_derived_ids_are_shortened_stably() {
        assert_eq!(derived_id(&["shop", "mug"], 64), "shop-mug");
        let long = derived_id(&[&"a".repeat(60), "b"], 64);
        assert!(long.len() <= 64 && long.starts_with("aaaa"), "{long}");
        assert_eq!(long, derived_id(&[&"a".repeat(60), "b"], 64));
        assert_ne!(long, derived_id(&[&"a".repeat(60), "c"], 64));
    }

    #[test]
    fn titles_slugify_to_field_ids() {
        assert_eq!(slugify("Your e-mail, please!"), "your-e-mail-please");
    }
}
