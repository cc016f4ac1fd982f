//! Field value shapes of spec 000 s3: how each field type's value travels in the `form` JSON
//! of a submission, and how the server reads it back.
//!
//! name, date, time and address are arrays of parts; a phone is an array with a leading empty
//! entry when it has three parts (no country code); radio is the first checked value; checkbox
//! the list of checked values; select its value; likert a map of statement to answer; hidden
//! and every other type a single value.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::likert::LikertAnswer;
use super::model::FieldKind;

/// One field's submitted value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum FieldValue {
    Single(String),
    /// Parts of a name, date, time, address or phone, or the checked boxes of a checkbox.
    List(Vec<String>),
    /// Statement to answer (`"-2"` to `"2"`) of a Likert field.
    Map(BTreeMap<String, String>),
}

/// How many parts a multi-part field has, in the order of its summary parts.
pub fn part_count(kind: &FieldKind) -> Option<usize> {
    match kind {
        FieldKind::Name => Some(2),
        FieldKind::Date => Some(3),
        FieldKind::Time => Some(4),
        FieldKind::Address => Some(6),
        FieldKind::Phone { .. } => Some(4),
        _ => None,
    }
}

/// The submitted value does not have the shape its field type needs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the value of field {field} does not have the shape of its type")]
pub struct ValueShapeError {
    pub field: String,
}

impl FieldValue {
    /// The empty value of a field type: what a field left alone submits.
    pub fn empty(kind: &FieldKind) -> Self {
        match kind {
            FieldKind::Checkbox { .. } => Self::List(Vec::new()),
            FieldKind::Likert { .. } => Self::Map(BTreeMap::new()),
            kind => match part_count(kind) {
                Some(count) => Self::List(vec![String::new(); count]),
                None => Self::Single(String::new()),
            },
        }
    }

    /// Reads the JSON value of one field; `None` (an absent field) reads as empty.
    ///
    /// A phone of three parts gets its leading empty country entry, so the server always
    /// stores four parts; numbers and booleans are read as their text, since browsers send
    /// strings and an API client sending `5` for a number field means the same thing.
    pub fn from_json(
        field_id: &str,
        kind: &FieldKind,
        json: Option<&Json>,
    ) -> Result<Self, ValueShapeError> {
        let shape_error = || ValueShapeError {
            field: field_id.to_owned(),
        };
        let Some(json) = json.filter(|json| !json.is_null()) else {
            return Ok(Self::empty(kind));
        };
        match kind {
            FieldKind::Checkbox { .. } => match json {
                Json::Array(items) => items
                    .iter()
                    .map(scalar_text)
                    .collect::<Option<Vec<_>>>()
                    .map(Self::List)
                    .ok_or_else(shape_error),
                // A single checked box may arrive as a plain value.
                other => scalar_text(other)
                    .map(|text| Self::List(vec![text]))
                    .ok_or_else(shape_error),
            },
            FieldKind::Likert { .. } => match json {
                Json::Object(entries) => entries
                    .iter()
                    .map(|(statement, answer)| {
                        scalar_text(answer).map(|answer| (statement.clone(), answer))
                    })
                    .collect::<Option<BTreeMap<_, _>>>()
                    .map(Self::Map)
                    .ok_or_else(shape_error),
                _ => Err(shape_error()),
            },
            kind => match (part_count(kind), json) {
                (Some(count), Json::Array(items)) => {
                    let mut parts = items
                        .iter()
                        .map(scalar_text)
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(shape_error)?;
                    if matches!(kind, FieldKind::Phone { .. }) && parts.len() == 3 {
                        parts.insert(0, String::new());
                    }
                    if parts.len() != count {
                        return Err(shape_error());
                    }
                    Ok(Self::List(parts))
                }
                (Some(_), _) => Err(shape_error()),
                (None, json) => scalar_text(json).map(Self::Single).ok_or_else(shape_error),
            },
        }
    }

    /// The JSON the browser sends for this value: a phone without a country code keeps its
    /// leading empty entry, as 000 s3 says.
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or(Json::Null)
    }

    /// Whether the visitor gave nothing: every part blank, nothing checked.
    pub fn is_blank(&self) -> bool {
        match self {
            Self::Single(text) => text.trim().is_empty(),
            Self::List(items) => items.iter().all(|item| item.trim().is_empty()),
            Self::Map(entries) => entries.values().all(|answer| answer.trim().is_empty()),
        }
    }

    pub fn as_single(&self) -> Option<&str> {
        match self {
            Self::Single(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[String]> {
        match self {
            Self::List(items) => Some(items),
            _ => None,
        }
    }

    /// The Likert answers, when every one of them is on the scale.
    pub fn likert_answers(&self) -> Option<BTreeMap<&str, LikertAnswer>> {
        match self {
            Self::Map(entries) => entries
                .iter()
                .filter(|(_, answer)| !answer.trim().is_empty())
                .map(|(statement, answer)| {
                    LikertAnswer::parse(answer)
                        .ok()
                        .map(|answer| (statement.as_str(), answer))
                })
                .collect(),
            _ => None,
        }
    }
}

fn scalar_text(json: &Json) -> Option<String> {
    match json {
        Json::String(text) => Some(text.clone()),
        Json::Number(number) => Some(number.to_string()),
        Json::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn read(kind: FieldKind, json: Json) -> Result<FieldValue, ValueShapeError> {
        FieldValue::from_json("f", &kind, Some(&json))
    }

    #[test]
    fn a_three_part_phone_gets_a_leading_empty_entry() {
        let value = read(
            FieldKind::Phone {
                show_country_code: false,
            },
            json!(["555", "123", "4567"]),
        )
        .unwrap();
        assert_eq!(value.to_json(), json!(["", "555", "123", "4567"]));
    }

    #[test]
    fn parts_must_match_the_type() {
        assert!(read(FieldKind::Name, json!(["Ada"])).is_err());
        assert!(read(FieldKind::Date, json!("2024-01-01")).is_err());
        assert_eq!(
            read(FieldKind::Name, json!(["Ada", "Lovelace"])).unwrap(),
            FieldValue::List(vec!["Ada".into(), "Lovelace".into()])
        );
    }

    #[test]
    fn checkboxes_are_a_list_and_radios_a_single_value() {
        let options = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(
            read(
                FieldKind::Checkbox {
                    options: options.clone()
                },
                json!(["a", "b"])
            )
            .unwrap(),
            FieldValue::List(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            read(FieldKind::Radio { options }, json!("b")).unwrap(),
            FieldValue::Single("b".into())
        );
    }

    #[test]
    fn likert_is_a_map_of_statement_to_answer() {
        let value = read(
            FieldKind::Likert {
                statements: vec!["Fast".into()],
            },
            json!({"Fast": "2"}),
        )
        .unwrap();
        assert_eq!(
            value.likert_answers().unwrap()["Fast"].label(),
            "Strongly Agree"
        );
    }

    #[test]
    fn an_absent_field_reads_as_its_empty_value() {
        let value = FieldValue::from_json("f", &FieldKind::Address, None).unwrap();
        assert_eq!(value, FieldValue::List(vec![String::new(); 6]));
        assert!(value.is_blank());
    }
}
