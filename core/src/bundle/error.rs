//! The one error a bundle can be refused with: which file, which field, and what was expected.

use std::fmt;

use serde::de::DeserializeOwned;

/// Why a bundle was refused. `field` is a dotted path inside `file`, such as
/// `variants[0].price`; it is absent when the problem is the file itself.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct BundleError {
    pub file: String,
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{}: field '{field}': {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl BundleError {
    /// A problem with a whole file.
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            field: None,
            message: message.into(),
        }
    }

    /// A problem with one field of a file.
    pub fn field(
        file: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.into(),
            field: Some(field.into()),
            message: message.into(),
        }
    }
}

/// A position inside one bundle file: the file's name and a dotted path prefix. Conversions
/// carry one so every error they raise says where it was.
#[derive(Debug, Clone)]
pub(crate) struct At<'a> {
    pub file: &'a str,
    pub path: String,
}

impl<'a> At<'a> {
    pub fn root(file: &'a str) -> Self {
        Self {
            file,
            path: String::new(),
        }
    }

    /// The position of a named field below this one.
    pub fn field(&self, name: &str) -> Self {
        Self {
            file: self.file,
            path: join(&self.path, name),
        }
    }

    /// The position of an element of an array below this one.
    pub fn index(&self, index: usize) -> Self {
        Self {
            file: self.file,
            path: format!("{}[{index}]", self.path),
        }
    }

    pub fn error(&self, message: impl Into<String>) -> BundleError {
        if self.path.is_empty() {
            BundleError::file(self.file, message)
        } else {
            BundleError::field(self.file, self.path.clone(), message)
        }
    }

    /// Deserialises `value` as a `T`, reporting the exact field that did not fit.
    pub fn deserialize<T: DeserializeOwned>(&self, value: toml::Value) -> Result<T, BundleError> {
        serde_path_to_error::deserialize(value)
            .map_err(|error| self.serde_error(&error.path().to_string(), error.inner().message()))
    }

    /// Parses a whole TOML document as a `T`.
    pub fn parse_toml<T: DeserializeOwned>(&self, text: &str) -> Result<T, BundleError> {
        let deserializer = toml::Deserializer::parse(text).map_err(|error| {
            let place = match error.span() {
                Some(span) => {
                    let (line, column) = line_and_column(text, span.start);
                    format!(" at line {line}, column {column}")
                }
                None => String::new(),
            };
            self.error(format!("TOML syntax error{place}: {}", error.message()))
        })?;
        serde_path_to_error::deserialize(deserializer)
            .map_err(|error| self.serde_error(&error.path().to_string(), error.inner().message()))
    }

    fn serde_error(&self, path: &str, message: &str) -> BundleError {
        // serde_path_to_error writes the root as ".".
        let path = if path == "." { "" } else { path };
        let at = Self {
            file: self.file,
            path: join(&self.path, path),
        };
        if let Some(field) = between(message, "missing field `", "`") {
            return at.field(field).error("missing; this field is required");
        }
        at.error(describe(message))
    }
}

fn join(prefix: &str, name: &str) -> String {
    match (prefix.is_empty(), name.is_empty()) {
        (_, true) => prefix.to_owned(),
        (true, false) => name.to_owned(),
        (false, false) if name.starts_with('[') => format!("{prefix}{name}"),
        (false, false) => format!("{prefix}.{name}"),
    }
}

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.chars().rev().take_while(|c| *c != '\n').count() + 1;
    (line, column)
}

fn between<'m>(message: &'m str, start: &str, end: &str) -> Option<&'m str> {
    let rest = message.strip_prefix(start)?;
    rest.find(end).map(|stop| &rest[..stop])
}

/// Rewrites serde's messages ("invalid type: string \"x\", expected u32") into the bundle's
/// "expected ..., found ..." form, with type names a site owner understands.
fn describe(message: &str) -> String {
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some(rest) = message.strip_prefix(prefix)
            && let Some((found, expected)) = rest.rsplit_once(", expected ")
        {
            return format!(
                "expected {}, found {}",
                plain_type(expected),
                plain_found(found)
            );
        }
    }
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((field, expected)) = rest.split_once("`, expected ")
    {
        let expected = expected.replace('`', "'").replace("one of ", "");
        return format!("unknown field '{field}'; the known fields are {expected}");
    }
    if let Some(rest) = message.strip_prefix("unknown variant `")
        && let Some((found, expected)) = rest.split_once("`, expected ")
    {
        let expected = expected.replace('`', "'");
        return format!("expected {expected}, found '{found}'");
    }
    message.to_owned()
}

fn plain_type(expected: &str) -> String {
    let plain = match expected {
        "u8" => "an integer from 0 to 255",
        "u16" => "an integer from 0 to 65535",
        "u32" => "an integer from 0 to 4294967295",
        "i32" | "i64" | "u64" => "an integer",
        "f64" | "f32" => "a number",
        "a sequence" => "an array",
        "a map" => "a table",
        "a boolean" => "true or false",
        "a string" => "a string",
        other if other.starts_with("struct ") => "a table",
        other => other,
    };
    plain.to_owned()
}

fn plain_found(found: &str) -> String {
    match found {
        "sequence" => "an array".to_owned(),
        "map" => "a table".to_owned(),
        other => other.replace('`', ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_messages_read_as_expected_and_found() {
        assert_eq!(
            describe("invalid type: string \"5\", expected u32"),
            "expected an integer from 0 to 4294967295, found string \"5\""
        );
        assert_eq!(
            describe("invalid value: integer `300`, expected u8"),
            "expected an integer from 0 to 255, found integer 300"
        );
        assert_eq!(
            describe("unknown variant `pub`, expected `published` or `draft`"),
            "expected 'published' or 'draft', found 'pub'"
        );
        assert_eq!(
            describe("unknown field `colour`, expected one of `sku`, `price`"),
            "unknown field 'colour'; the known fields are 'sku', 'price'"
        );
    }

    #[test]
    fn errors_name_the_file_and_the_field() {
        let at = At::root("collections/shop/tote.toml")
            .field("variants")
            .index(0);
        assert_eq!(
            at.field("price").error("too dear").to_string(),
            "collections/shop/tote.toml: field 'variants[0].price': too dear"
        );
        assert_eq!(
            At::root("site.toml").error("missing").to_string(),
            "site.toml: missing"
        );
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let error = At::root("site.toml")
            .parse_toml::<toml::Table>("a = 1\nb = [\n")
            .unwrap_err();
        assert!(
            error
                .message
                .starts_with("TOML syntax error at line 2, column 6"),
            "{error}"
        );
    }
}
