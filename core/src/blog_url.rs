//! Tokenised blog post URLs (000 §5): the pattern a site owner types, such as
//! `%y/%m/%d/%t`, cleaned into a safe form and expanded for each post.
//!
//! Cleaning, in this order: leading slashes are stripped; runs of `%` and of `/` collapse to
//! one; letters are lowercased; a `%` that does not start one of the tokens `%y` (year),
//! `%m` (month), `%d` (day) or `%t` (title slug) is dropped, leaving the following text as
//! literal text; every run of other characters than `a-z`, `0-9`, `-`, `_`, `.` and `/`
//! becomes one hyphen ("hyphenates") and runs of hyphens collapse to one, after accented Latin letters are folded to plain ones
//! (`é` to `e`, `ß` to `ss`) so "Été" reads "ete" rather than "-t-". Hyphens next to a slash
//! or at either end are dropped. A pattern that cleans to nothing becomes `%t`, so every post
//! still gets an address of its own.

use std::fmt;

/// The allowed tokens, without their `%`.
const TOKENS: [char; 4] = ['y', 'm', 'd', 't'];

/// A cleaned blog URL pattern. It can only be made by [`BlogUrlPattern::normalize`], so it is
/// always in clean form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlogUrlPattern(String);

impl BlogUrlPattern {
    /// The pattern used when a site owner has not chosen one.
    pub fn title_only() -> Self {
        Self("%t".to_owned())
    }

    /// Cleans what a site owner typed into a pattern. Never fails: anything typed has a
    /// clean form.
    pub fn normalize(raw: &str) -> Self {
        let trimmed = fold_to_ascii(&raw.trim_start_matches('/').to_lowercase());
        let mut clean = String::with_capacity(trimmed.len());
        let mut chars = trimmed.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '%' => {
                    while chars.peek() == Some(&'%') {
                        chars.next();
                    }
                    if let Some(&token) = chars.peek().filter(|t| TOKENS.contains(t)) {
                        chars.next();
                        clean.push('%');
                        clean.push(token);
                    }
                }
                '/' if clean.ends_with('/') => {}
                c if c != '-' && is_literal(c) => clean.push(c),
                _ => {
                    if !clean.ends_with('-') {
                        clean.push('-');
                    }
                }
            }
        }
        // Dropping a `%` can bring two slashes together again ("a/%/b"), so segments are
        // rejoined without empty ones, each without hyphens at its ends.
        let segments: Vec<&str> = clean
            .split('/')
            .map(|segment| segment.trim_matches('-'))
            .filter(|segment| !segment.is_empty())
            .collect();
        let mut joined = segments.join("/");
        if clean.ends_with('/') && !joined.is_empty() {
            joined.push('/');
        }
        if joined.is_empty() {
            Self::title_only()
        } else {
            Self(joined)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The post's address relative to its blog, such as `2024/03/07/spring-menu`.
    pub fn expand(&self, date: PostDate, title_slug: &str) -> String {
        let mut out = String::with_capacity(self.0.len() + title_slug.len() + 8);
        let mut chars = self.0.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('y') => out.push_str(&format!("{:04}", date.year)),
                Some('m') => out.push_str(&format!("{:02}", date.month)),
                Some('d') => out.push_str(&format!("{:02}", date.day)),
                Some('t') => out.push_str(title_slug),
                // Clean patterns hold only the four tokens, so nothing else can follow '%'.
                _ => {}
            }
        }
        out
    }
}

impl fmt::Display for BlogUrlPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A calendar date that a post address can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PostDate {
    year: u16,
    month: u8,
    day: u8,
}

/// A year, month and day that are not a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{year:04}-{month:02}-{day:02} is not a valid post date")]
pub struct InvalidPostDate {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl PostDate {
    /// A date of the proleptic Gregorian calendar with a four-digit year.
    pub fn new(year: u16, month: u8, day: u8) -> Result<Self, InvalidPostDate> {
        let leap =
            (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
        let days_in_month = match month {
            1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
            4 | 6 | 9 | 11 => 30,
            2 if leap => 29,
            2 => 28,
            _ => 0,
        };
        if (1..=9999).contains(&year) && (1..=days_in_month).contains(&day) {
            Ok(Self { year, month, day })
        } else {
            Err(InvalidPostDate { year, month, day })
        }
    }
}

/// Turns a post title into the slug used by `%t`: lowercase ASCII letters and digits, with
/// every run of anything else made one hyphen and no hyphen at either end.
pub fn slugify(title: &str) -> String {
    let mut slug = String::with_capacity(title.len());
    for c in fold_to_ascii(&title.to_lowercase()).chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

fn is_literal(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.' | '/')
}

/// Replaces lowercase accented Latin letters with their plain spelling; other characters
/// pass through unchanged.
fn fold_to_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let plain = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
            'æ' => "ae",
            'ç' | 'ć' | 'č' => "c",
            'ď' | 'đ' | 'ð' => "d",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
            'ğ' => "g",
            'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
            'ł' | 'ľ' | 'ĺ' => "l",
            'ñ' | 'ń' | 'ň' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
            'œ' => "oe",
            'ŕ' | 'ř' => "r",
            'ś' | 'š' | 'ş' => "s",
            'ß' => "ss",
            'ť' | 'ţ' => "t",
            'þ' => "th",
            'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
            'ý' | 'ÿ' => "y",
            'ź' | 'ż' | 'ž' => "z",
            other => {
                out.push(other);
                continue;
            }
        };
        out.push_str(plain);
    }
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;

    fn check(raw: &[&str], expect: Expect) {
        let table: String = raw
            .iter()
            .map(|r| format!("{r:?} -> {}\n", BlogUrlPattern::normalize(r)))
            .collect();
        expect.assert_eq(&table);
    }

    #[test]
    fn normalizes_patterns() {
        check(
            &[
                "%y/%m/%d/%t",
                "///blog//%y%%%m/%t",
                "%Y/%M/%T",
                "News & Views/%t",
                "%q/%t",
                "a/%/b",
                "%",
                "",
                "Été %t",
                "/news/",
                "- %t -",
                "%y & -- %t",
            ],
            expect![[r#"
                "%y/%m/%d/%t" -> %y/%m/%d/%t
                "///blog//%y%%%m/%t" -> blog/%y%m/%t
                "%Y/%M/%T" -> %y/%m/%t
                "News & Views/%t" -> news-views/%t
                "%q/%t" -> q/%t
                "a/%/b" -> a/b
                "%" -> %t
                "" -> %t
                "Été %t" -> ete-%t
                "/news/" -> news/
                "- %t -" -> %t
                "%y & -- %t" -> %y-%t
            "#]],
        );
    }

    #[test]
    fn expands_a_pattern_for_a_post() {
        let date = PostDate::new(2024, 3, 7).unwrap();
        let pattern = BlogUrlPattern::normalize("/%y/%m/%d/%t");
        assert_eq!(
            pattern.expand(date, "spring-menu"),
            "2024/03/07/spring-menu"
        );
        assert_eq!(BlogUrlPattern::title_only().expand(date, "hello"), "hello");
    }

    #[test]
    fn rejects_impossible_dates() {
        assert!(PostDate::new(2024, 2, 29).is_ok());
        assert!(PostDate::new(2023, 2, 29).is_err());
        assert!(PostDate::new(2024, 13, 1).is_err());
        assert_eq!(
            PostDate::new(2024, 4, 31).unwrap_err().to_string(),
            "2024-04-31 is not a valid post date"
        );
    }

    #[test]
    fn slugifies_titles() {
        assert_eq!(slugify("  Spring Menu: 2024!  "), "spring-menu-2024");
        assert_eq!(
            slugify("Crème brûlée à la Straße"),
            "creme-brulee-a-la-strasse"
        );
        assert_eq!(slugify("!!!"), "");
    }
}
