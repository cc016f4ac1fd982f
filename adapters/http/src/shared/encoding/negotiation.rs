//! Content-encoding negotiation: picks the representation a client asked for in
//! `Accept-Encoding`, honouring q-values and preferring brotli when both are equally welcome.

/// A representation of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

impl Encoding {
    /// The `Content-Encoding` value, or `None` for the original bytes.
    pub(crate) fn header_value(self) -> Option<&'static str> {
        match self {
            Self::Brotli => Some("br"),
            Self::Gzip => Some("gzip"),
            Self::Identity => None,
        }
    }
}

/// The best encoding among `available` (most preferred first) for an `Accept-Encoding` value.
/// Without the header, or when nothing offered is acceptable, the original bytes are sent:
/// refusing a page or an asset helps nobody.
///
/// Every cached page and asset is negotiated here, so the header is read in place, once per
/// encoding offered, rather than parsed into owned entries first.
pub(crate) fn choose(
    accept_encoding: Option<&str>,
    available: impl IntoIterator<Item = Encoding>,
) -> Encoding {
    let Some(header) = accept_encoding else {
        return Encoding::Identity;
    };
    let mut best = Encoding::Identity;
    let mut best_quality = 0.0_f32;
    for encoding in available {
        let Some(name) = encoding.header_value() else {
            continue;
        };
        let quality = quality_of(header, name);
        // Strictly greater: on a tie the earlier, more preferred encoding stays.
        if quality > best_quality {
            best = encoding;
            best_quality = quality;
        }
    }
    best
}

/// The q-value `header` gives `coding`: that of the first entry naming it, else that of the
/// first wildcard, else 0.
fn quality_of(header: &str, coding: &str) -> f32 {
    let mut wildcard = None;
    for (name, quality) in header.split(',').filter_map(parse_entry) {
        if name.eq_ignore_ascii_case(coding) {
            return quality;
        }
        if name == "*" && wildcard.is_none() {
            wildcard = Some(quality);
        }
    }
    wildcard.unwrap_or(0.0)
}

/// One `coding;q=value` entry; malformed q-values count as 0.
fn parse_entry(entry: &str) -> Option<(&str, f32)> {
    let mut parts = entry.split(';');
    let name = parts.next()?.trim();
    if name.is_empty() {
        return None;
    }
    let mut quality = 1.0;
    for parameter in parts {
        if let Some((key, value)) = parameter.split_once('=')
            && key.trim().eq_ignore_ascii_case("q")
        {
            quality = value
                .trim()
                .parse::<f32>()
                .ok()
                .filter(|q| (0.0..=1.0).contains(q))
                .unwrap_or(0.0);
        }
    }
    Some((name, quality))
}

#[cfg(test)]
mod tests {
    use super::Encoding::{Brotli, Gzip, Identity};
    use super::*;

    const BOTH: [Encoding; 2] = [Brotli, Gzip];

    #[test]
    fn brotli_is_preferred_when_both_are_accepted() {
        assert_eq!(choose(Some("gzip, deflate, br, zstd"), BOTH), Brotli);
    }

    #[test]
    fn q_values_decide_over_preference() {
        assert_eq!(choose(Some("br;q=0.5, gzip;q=0.9"), BOTH), Gzip);
        assert_eq!(choose(Some("br;q=0, gzip"), BOTH), Gzip);
        assert_eq!(choose(Some("br;q=0, gzip;q=0"), BOTH), Identity);
    }

    #[test]
    fn a_wildcard_covers_codings_not_named() {
        assert_eq!(choose(Some("*"), BOTH), Brotli);
        assert_eq!(choose(Some("br;q=0, *;q=0.1"), BOTH), Gzip);
        assert_eq!(
            choose(Some("*;q=0.1, br;q=0"), BOTH),
            Gzip,
            "a coding's own entry wins over an earlier wildcard"
        );
    }

    #[test]
    fn a_coding_named_twice_takes_its_first_q_value() {
        assert_eq!(choose(Some("br;q=0, br, gzip;q=0.5"), BOTH), Gzip);
        assert_eq!(choose(Some("br;q=0.9, br;q=0, gzip;q=0.5"), BOTH), Brotli);
    }

    #[test]
    fn only_available_copies_are_chosen() {
        assert_eq!(choose(Some("br, gzip"), [Gzip]), Gzip);
        assert_eq!(choose(Some("br"), [Gzip]), Identity);
        assert_eq!(choose(Some("br, gzip"), []), Identity);
    }

    #[test]
    fn no_header_or_identity_gets_the_original() {
        assert_eq!(choose(None, BOTH), Identity);
        assert_eq!(choose(Some("identity"), BOTH), Identity);
        assert_eq!(choose(Some(""), BOTH), Identity);
    }

    #[test]
    fn codings_are_case_insensitive_and_bad_q_values_refuse() {
        assert_eq!(choose(Some("GZIP;Q=1"), BOTH), Gzip);
        assert_eq!(choose(Some("br;q=high, gzip;q=0.2"), BOTH), Gzip);
    }
}
