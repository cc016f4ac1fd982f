//! Links: the link classifiers and well-formedness rule of 000 §5, and the link shapes of
//! 000 §2 (content, file, collection panel and comment links).
//!
//! Our reading of the classifier limits: "under N characters" counts the characters
//! (Unicode scalar values) of the whole link, scheme included, so `tel:` plus 45 digits is
//! the longest telephone link. Scheme names match without regard to case, as URL schemes do.
//! A link that starts like one kind but breaks its rule (`tel:12`, a 300-character
//! `javascript:` link) is [`LinkKind::Unrecognised`], never silently another kind.

mod shapes;

pub use shapes::{
    CollectionPanelId, InvalidCollectionPanelId, collection_panel_link, comment_link, is_file_link,
    is_internal_content_link, parse_collection_panel_link,
};

/// Length limits of 000 §5: a link of a kind must be shorter than these many characters.
pub mod limits {
    pub const ANCHOR: usize = 100;
    pub const TEL: usize = 50;
    pub const SMS: usize = 1000;
    pub const MAILTO: usize = 1000;
    pub const JAVASCRIPT: usize = 250;
    pub const FTP: usize = 100;
    pub const INTERNAL_PATH: usize = 150;
    /// The fewest characters of a telephone number after `tel:`.
    pub const TEL_MIN_NUMBER: usize = 4;
}

/// What a link points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// `#section`: a place on the same page.
    Anchor,
    /// `tel:+1-555-0100`.
    Tel,
    /// `sms:+15550100`.
    Sms,
    /// `mailto:someone@example.com`.
    Mailto,
    /// `javascript:...`, kept so the editor can recognise and neutralise it.
    Javascript,
    /// `ftp://host/path`.
    Ftp,
    /// `/a/path` on this site.
    InternalPath,
    /// A well-formed `http://` or `https://` address.
    Web,
    /// Anything else, including links that start like a kind but break its rule.
    Unrecognised,
}

/// Classifies a link by the rules of 000 §5.
pub fn classify(link: &str) -> LinkKind {
    let length = link.chars().count();
    if let Some(fragment) = link.strip_prefix('#') {
        let ok = length < limits::ANCHOR && !fragment.chars().any(char::is_whitespace);
        return kind_if(ok, LinkKind::Anchor);
    }
    if let Some(number) = strip_scheme(link, "tel:") {
        let ok = length < limits::TEL
            && number.len() >= limits::TEL_MIN_NUMBER
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || c == '+' || c == '-');
        return kind_if(ok, LinkKind::Tel);
    }
    if let Some(recipient) = strip_scheme(link, "sms:") {
        return kind_if(length < limits::SMS && !recipient.is_empty(), LinkKind::Sms);
    }
    if let Some(address) = strip_scheme(link, "mailto:") {
        return kind_if(
            length < limits::MAILTO && is_mail_address(address),
            LinkKind::Mailto,
        );
    }
    if let Some(script) = strip_scheme(link, "javascript:") {
        return kind_if(
            length < limits::JAVASCRIPT && !script.is_empty(),
            LinkKind::Javascript,
        );
    }
    if strip_scheme(link, "ftp:").is_some() {
        return kind_if(length < limits::FTP && is_well_formed(link), LinkKind::Ftp);
    }
    if strip_scheme(link, "http:").is_some() || strip_scheme(link, "https:").is_some() {
        return kind_if(is_well_formed(link), LinkKind::Web);
    }
    if link.starts_with('/') && !link.starts_with("//") {
        let ok = length < limits::INTERNAL_PATH && !link.chars().any(char::is_whitespace);
        return kind_if(ok, LinkKind::InternalPath);
    }
    LinkKind::Unrecognised
}

/// Whether a link is a well-formed absolute address (000 §5): only `http`, `https` and `ftp`
/// followed by `//` and a host qualify; whitespace anywhere disqualifies.
pub fn is_well_formed(link: &str) -> bool {
    let rest = ["http://", "https://", "ftp://"]
        .iter()
        .find_map(|scheme| strip_scheme(link, scheme));
    let Some(rest) = rest else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    !host.is_empty() && !link.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn kind_if(ok: bool, kind: LinkKind) -> LinkKind {
    if ok { kind } else { LinkKind::Unrecognised }
}

/// The text after a scheme prefix, matched without regard to ASCII case.
fn strip_scheme<'a>(link: &'a str, scheme: &str) -> Option<&'a str> {
    let head = link.get(..scheme.len())?;
    head.eq_ignore_ascii_case(scheme)
        .then(|| &link[scheme.len()..])
}

/// One `@` with text before it, and a domain with a dot followed by an extension (000 §5).
/// Anything after `?` (subject, body) is not part of the address.
fn is_mail_address(address: &str) -> bool {
    let address = address.split('?').next().unwrap_or_default();
    let mut parts = address.split('@');
    let (Some(local), Some(domain), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let Some((name, extension)) = domain.rsplit_once('.') else {
        return false;
    };
    !local.is_empty()
        && !name.is_empty()
        && !extension.is_empty()
        && !address.chars().any(char::is_whitespace)
}

#[cfg(test)]
mod tests;
