//! Identifier and slug newtypes: an id or slug that exists has already been validated.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a text was refused as an identifier or a slug.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("{kind} is empty")]
    Empty { kind: &'static str },
    #[error("{kind} is longer than {max} characters")]
    TooLong { kind: &'static str, max: usize },
    #[error("{kind} '{value}' may only contain {allowed}")]
    InvalidCharacter {
        kind: &'static str,
        value: String,
        allowed: &'static str,
    },
}

macro_rules! identifier {
    ($(#[$meta:meta])* $name:ident, $kind:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl $name {
            /// Longest identifier accepted; the platform's own ids are 24 hex characters.
            pub const MAX_LEN: usize = 64;

            pub fn parse(value: impl Into<String>) -> Result<Self, IdError> {
                let value = value.into();
                check(&value, $kind, Self::MAX_LEN, |c| {
                    c.is_ascii_alphanumeric() || c == '-' || c == '_'
                }, "letters, digits, '-' and '_'")?;
                Ok(Self(value))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = IdError;
            fn try_from(value: String) -> Result<Self, Self::Error> {
                Self::parse(value)
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> String {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

identifier!(
    /// A website's id.
    WebsiteId,
    "website id"
);
identifier!(
    /// A collection's id (pages, blogs and shops are collections).
    CollectionId,
    "collection id"
);
identifier!(
    /// A content item's id (a blog post, a product).
    ItemId,
    "item id"
);
identifier!(
    /// A block's id, unique within the site; rendered as `block-{id}`.
    BlockId,
    "block id"
);

/// The last path segment of a collection's or an item's URL: lowercase letters, digits and hyphens.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Slug(String);

impl Slug {
    /// Internal paths must stay under 150 characters (spec 000 s5), so one segment stays well below.
    pub const MAX_LEN: usize = 100;

    pub fn parse(value: impl Into<String>) -> Result<Self, IdError> {
        let value = value.into();
        check(
            &value,
            "slug",
            Self::MAX_LEN,
            |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-',
            "lowercase letters, digits and '-'",
        )?;
        Ok(Self(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Slug {
    type Error = IdError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Self::parse(value)
    }
}

impl From<Slug> for String {
    fn from(slug: Slug) -> String {
        slug.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `value` is an opaque token of 1 to 64 ASCII letters, digits or dashes, the shape of
/// the ids visitors' browsers hand back (visitor ids, receipt ids): UUIDs in practice.
pub(crate) fn is_opaque_token(value: &str) -> bool {
    (1..=64).contains(&value.len())
        && value
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-')
}

fn check(
    value: &str,
    kind: &'static str,
    max: usize,
    allowed: impl Fn(char) -> bool,
    allowed_text: &'static str,
) -> Result<(), IdError> {
    if value.is_empty() {
        return Err(IdError::Empty { kind });
    }
    if value.chars().count() > max {
        return Err(IdError::TooLong { kind, max });
    }
    if !value.chars().all(allowed) {
        return Err(IdError::InvalidCharacter {
            kind,
            value: value.to_owned(),
            allowed: allowed_text,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_accept_the_platform_shape_and_refuse_others() {
        assert!(ItemId::parse("5f1a2b3c4d5e6f7a8b9c0d1e").is_ok());
        assert_eq!(
            BlockId::parse("").unwrap_err(),
            IdError::Empty { kind: "block id" }
        );
        assert!(matches!(
            CollectionId::parse("a b"),
            Err(IdError::InvalidCharacter { .. })
        ));
        assert!(matches!(
            WebsiteId::parse("x".repeat(65)),
            Err(IdError::TooLong { max: 64, .. })
        ));
    }

    #[test]
    fn slugs_are_lowercase_path_segments() {
        assert!(Slug::parse("summer-sale-2026").is_ok());
        assert!(Slug::parse("Shop").is_err());
        assert!(Slug::parse("a/b").is_err());
    }

    #[test]
    fn ids_deserialize_through_validation() {
        let err = serde_json::from_str::<Slug>("\"Not A Slug\"").unwrap_err();
        assert!(err.to_string().contains("lowercase letters"), "{err}");
    }
}
