//! The tracking cookies: the visitor cookie `ss_cvr` (id, first visit, previous visit, current
//! visit, count, pipe-separated; 2 years), the visit cookie `ss_cvt` (a timestamp; 30 minutes)
//! and the analytics cookie (390 days). Formats are validated as 000 s5 says: the visitor
//! cookie is an id plus four positive integers, the visit cookie one positive integer.

use std::fmt;
use std::str::FromStr;

/// The visitor cookie (000 s9 lists it among the tracking cookies).
pub const VISITOR_COOKIE: &str = "ss_cvr";
/// The visit-timestamp cookie.
pub const VISIT_COOKIE: &str = "ss_cvt";
/// The analytics cookie. The spec gives its lifetime (390 days) but not its name; Vitrine uses
/// `SS_MID`, one of the tracking cookies of 000 s9, so a restrictive policy clears it too.
pub const ANALYTICS_COOKIE: &str = "SS_MID";

/// Two years of 365 days.
pub const VISITOR_COOKIE_MAX_AGE_SECONDS: u64 = 2 * 365 * 24 * 60 * 60;
pub const VISIT_COOKIE_MAX_AGE_SECONDS: u64 = 30 * 60;
pub const ANALYTICS_COOKIE_MAX_AGE_SECONDS: u64 = 390 * 24 * 60 * 60;

/// Why a cookie value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CookieFormatError {
    #[error("the visitor cookie has {0} parts, not 5")]
    PartCount(usize),
    #[error(
        "the visitor id is empty, too long or holds characters other than letters, digits and dashes"
    )]
    BadId,
    #[error("`{0}` is not a positive integer")]
    NotPositive(String),
}

/// A visitor id: 1 to 64 ASCII letters, digits or dashes (a UUID in practice).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VisitorId(String);

impl VisitorId {
    pub fn new(id: impl Into<String>) -> Result<Self, CookieFormatError> {
        let id = id.into();
        if crate::site::is_opaque_token(&id) {
            Ok(Self(id))
        } else {
            Err(CookieFormatError::BadId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn positive(text: &str) -> Result<u64, CookieFormatError> {
    match text.parse::<u64>() {
        Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(CookieFormatError::NotPositive(text.to_owned())),
    }
}

/// The visitor cookie's value. Times are milliseconds since the Unix epoch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisitorCookie {
    pub id: VisitorId,
    pub first_visit_ms: u64,
    pub previous_visit_ms: u64,
    pub current_visit_ms: u64,
    pub count: u64,
}

impl VisitorCookie {
    /// A first visit at `now_ms`: every time is now and the count is 1.
    pub fn first(id: VisitorId, now_ms: u64) -> Self {
        let now_ms = now_ms.max(1);
        Self {
            id,
            first_visit_ms: now_ms,
            previous_visit_ms: now_ms,
            current_visit_ms: now_ms,
            count: 1,
        }
    }

    /// The cookie after a page view at `now_ms`. Inside a visit (the visit cookie still lives)
    /// nothing changes; otherwise a new visit starts: the current time becomes the previous one
    /// and the count goes up.
    pub fn after_page_view(&self, visit_active: bool, now_ms: u64) -> Self {
        if visit_active {
            return self.clone();
        }
        Self {
            id: self.id.clone(),
            first_visit_ms: self.first_visit_ms,
            previous_visit_ms: self.current_visit_ms,
            current_visit_ms: now_ms.max(self.current_visit_ms),
            count: self.count.saturating_add(1),
        }
    }
}

impl fmt::Display for VisitorCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}|{}|{}|{}|{}",
            self.id.as_str(),
            self.first_visit_ms,
            self.previous_visit_ms,
            self.current_visit_ms,
            self.count
        )
    }
}

impl FromStr for VisitorCookie {
    type Err = CookieFormatError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = value.split('|').collect();
        let [id, first, previous, current, count] = parts[..] else {
            return Err(CookieFormatError::PartCount(parts.len()));
        };
        Ok(Self {
            id: VisitorId::new(id)?,
            first_visit_ms: positive(first)?,
            previous_visit_ms: positive(previous)?,
            current_visit_ms: positive(current)?,
            count: positive(count)?,
        })
    }
}

/// The visit cookie's value: when the current visit started, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VisitCookie(pub u64);

impl FromStr for VisitCookie {
    type Err = CookieFormatError;
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        positive(value).map(Self)
    }
}

impl fmt::Display for VisitCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
