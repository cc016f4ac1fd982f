//! Product forms: the details a product asks for when a shopper adds it to the cart (a name
//! to engrave, a gift message), and the shopper's answers. The fields are the site's form
//! fields (001 s3) and the answers pass the site's form rules (000 s5), so a product form
//! says "Name to engrave is required." exactly as a contact form would.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::forms::FieldErrors;
use crate::forms::messages;
use crate::forms::model::FieldDefinition;
use crate::forms::validation::{exceeds_max_length, validate_field};
use crate::forms::values::FieldValue;
use crate::site::{FormField, FormFieldType};

/// The most fields one product form holds: a form to personalise a product, not a survey.
pub const MAX_FORM_FIELDS: usize = 20;
/// The longest answer a field takes, and the limit of a field whose owner set none, in
/// UTF-16 code units as browsers count `maxlength`. Answers travel with the cart and the
/// order, so none is unbounded.
pub const MAX_ANSWER_LENGTH: u32 = 1_000;
/// Said of an answer to a field the product's form does not have (our text; the
/// specification shows none).
pub const UNKNOWN_FIELD: &str = "This product does not ask for this.";
/// The title a form gets when its owner gives none.
pub const DEFAULT_FORM_TITLE: &str = "Personalisation";

/// What a shopper sent for a product form: field id to value.
pub type SubmittedAnswers = BTreeMap<String, String>;

/// Why a product form was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProductFormError {
    #[error("a product form has 1 to {MAX_FORM_FIELDS} fields, found {0}")]
    FieldCount(usize),
    #[error(
        "field '{0}': a product form takes text, textarea, email, select and radio fields, \
         whose answer is one text"
    )]
    UnsupportedType(String),
    #[error("field '{0}' needs at least one option")]
    NoOptions(String),
    #[error("the field id '{0}' is used twice")]
    DuplicateField(String),
    #[error("field '{0}': a maximum length is 1 to {MAX_ANSWER_LENGTH}")]
    MaxLength(String),
}

/// The form a product asks the shopper to fill when adding it to the cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProductForm {
    /// What the form is about, read as the legend of its fields ("Engraving").
    pub title: String,
    pub fields: Vec<FormField>,
}

impl ProductForm {
    /// A form of single-answer fields with unique ids: text (with an optional maximum
    /// length, as engraving has), textarea, email, select and radio.
    pub fn new(title: impl Into<String>, fields: Vec<FormField>) -> Result<Self, ProductFormError> {
        if fields.is_empty() || fields.len() > MAX_FORM_FIELDS {
            return Err(ProductFormError::FieldCount(fields.len()));
        }
        for (index, field) in fields.iter().enumerate() {
            let id = || field.id.clone();
            let choices = match field.field_type {
                FormFieldType::Text | FormFieldType::Textarea | FormFieldType::Email => false,
                FormFieldType::Select | FormFieldType::Radio => true,
                _ => return Err(ProductFormError::UnsupportedType(id())),
            };
            if choices && field.options.is_empty() {
                return Err(ProductFormError::NoOptions(id()));
            }
            if fields[..index].iter().any(|earlier| earlier.id == field.id) {
                return Err(ProductFormError::DuplicateField(id()));
            }
            if field
                .max_length
                .is_some_and(|max| max == 0 || max > MAX_ANSWER_LENGTH)
            {
                return Err(ProductFormError::MaxLength(id()));
            }
        }
        let title = title.into();
        Ok(Self {
            title: if title.trim().is_empty() {
                DEFAULT_FORM_TITLE.to_owned()
            } else {
                title
            },
            fields,
        })
    }

    pub fn field(&self, id: &str) -> Option<&FormField> {
        self.fields.iter().find(|field| field.id == id)
    }

    /// The most characters `field` takes: its own maximum, or the general one.
    pub fn max_length(field: &FormField) -> u32 {
        field
            .max_length
            .filter(|max| *max > 0)
            .unwrap_or(MAX_ANSWER_LENGTH)
    }

    /// Reads what the shopper sent against the form: the answers in the form's order (blank
    /// ones left out), or a message per field. A field the form does not have is refused
    /// rather than dropped, so a misspelt field id cannot lose what the shopper wrote.
    pub fn read(&self, submitted: &SubmittedAnswers) -> Result<FormAnswers, FieldErrors> {
        let mut errors = FieldErrors::new();
        for id in submitted.keys() {
            if self.field(id).is_none() {
                errors.insert(id.clone(), UNKNOWN_FIELD.to_owned());
            }
        }
        let mut answers = Vec::new();
        for field in &self.fields {
            let value = submitted
                .get(&field.id)
                .map(|value| normalise(value))
                .unwrap_or_default();
            let definition = FieldDefinition::from_block_field(field);
            let problem =
                validate_field(&definition, &FieldValue::Single(value.clone())).or_else(|| {
                    exceeds_max_length(&value, Some(Self::max_length(field)))
                        .then(|| messages::CHARACTER_LIMIT.to_owned())
                });
            match problem {
                Some(message) => {
                    errors.insert(field.id.clone(), message);
                }
                None if !value.is_empty() => answers.push(FormAnswer {
                    field_id: field.id.clone(),
                    title: definition.title,
                    value,
                }),
                None => {}
            }
        }
        if errors.is_empty() {
            Ok(FormAnswers(answers))
        } else {
            Err(errors)
        }
    }
}

/// An answer as it is kept: browsers send a text area's line breaks as CRLF, which would
/// count twice against a maximum the browser counted once; surrounding spaces mean nothing.
fn normalise(value: &str) -> String {
    value
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .trim()
        .to_owned()
}

/// One answer, with the field's title as the shopper read it, so a cart line and an order
/// still say what was asked after the owner changes the form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormAnswer {
    pub field_id: String,
    pub title: String,
    pub value: String,
}

/// A shopper's answers to a product form, in the form's order; blank answers are not kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FormAnswers(Vec<FormAnswer>);

impl FormAnswers {
    pub fn new(answers: Vec<FormAnswer>) -> Self {
        Self(answers)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, FormAnswer> {
        self.0.iter()
    }

    /// The answer to field `id`, empty when there is none.
    pub fn value(&self, id: &str) -> &str {
        self.0
            .iter()
            .find(|answer| answer.field_id == id)
            .map_or("", |answer| answer.value.as_str())
    }

    /// The answers as they would be sent again, to fill the form for editing.
    pub fn to_submitted(&self) -> SubmittedAnswers {
        self.0
            .iter()
            .map(|answer| (answer.field_id.clone(), answer.value.clone()))
            .collect()
    }

    /// Whether both say the same thing, whatever the fields' titles were called.
    pub fn same_as(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| a.field_id == b.field_id && a.value == b.value)
    }

    /// 16 hex digits naming what the answers say (their ids and values), the same for
    /// [`same_as`](Self::same_as) answers: the first 64 bits of SHA-256 over the
    /// length-prefixed ids and values, so no two different answer lists read alike by
    /// construction, only by a 64-bit coincidence.
    pub fn fingerprint(&self) -> String {
        let mut hash = Sha256::new();
        for answer in &self.0 {
            for part in [&answer.field_id, &answer.value] {
                hash.update((part.len() as u64).to_le_bytes());
                hash.update(part.as_bytes());
            }
        }
        hex::encode(&hash.finalize()[..8])
    }
}

impl<'a> IntoIterator for &'a FormAnswers {
    type Item = &'a FormAnswer;
    type IntoIter = std::slice::Iter<'a, FormAnswer>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(id: &str, field_type: FormFieldType, required: bool) -> FormField {
        FormField {
            id: id.into(),
            field_type,
            title: match id {
                "engraving" => "Name to engrave".into(),
                other => other.into(),
            },
            description: String::new(),
            placeholder: String::new(),
            required,
            options: match field_type {
                FormFieldType::Select | FormFieldType::Radio => vec!["Linen".into(), "None".into()],
                _ => Vec::new(),
            },
            max_length: None,
        }
    }

    fn engraving() -> ProductForm {
        let mut name = field("engraving", FormFieldType::Text, true);
        name.max_length = Some(5);
        ProductForm::new(
            "Engraving",
            vec![
                name,
                field("wrap", FormFieldType::Radio, false),
                field("note", FormFieldType::Textarea, false),
            ],
        )
        .unwrap()
    }

    fn sent(pairs: &[(&str, &str)]) -> SubmittedAnswers {
        pairs
            .iter()
            .map(|(id, value)| ((*id).to_owned(), (*value).to_owned()))
            .collect()
    }

    #[test]
    fn answers_follow_the_form_order_without_blank_ones() {
        let answers = engraving()
            .read(&sent(&[
                ("wrap", "Linen"),
                ("engraving", " Ada "),
                ("note", ""),
            ]))
            .unwrap();
        let read: Vec<(&str, &str, &str)> = answers
            .iter()
            .map(|a| (a.field_id.as_str(), a.title.as_str(), a.value.as_str()))
            .collect();
        assert_eq!(
            read,
            [
                ("engraving", "Name to engrave", "Ada"),
                ("wrap", "wrap", "Linen")
            ]
        );
    }

    #[test]
    fn each_field_is_checked_by_the_site_form_rules() {
        let errors = engraving()
            .read(&sent(&[("wrap", "Silk"), ("note", &"x".repeat(1_001))]))
            .unwrap_err();
        assert_eq!(errors["engraving"], "Name to engrave is required.");
        assert_eq!(errors["wrap"], messages::VALUE_NOT_OFFERED);
        assert_eq!(
            errors["note"],
            messages::CHARACTER_LIMIT,
            "the general limit"
        );
        let too_long = engraving().read(&sent(&[("engraving", "Adelaide")]));
        assert_eq!(
            too_long.unwrap_err()["engraving"],
            messages::CHARACTER_LIMIT,
            "a text field's own maximum"
        );
    }

    #[test]
    fn a_field_the_form_lacks_is_refused_by_name() {
        let errors = engraving()
            .read(&sent(&[("engraving", "Ada"), ("engrave", "Bo")]))
            .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors["engrave"], UNKNOWN_FIELD);
    }

    #[test]
    fn line_breaks_count_once_as_the_browser_counted_them() {
        let mut note = field("note", FormFieldType::Textarea, false);
        note.max_length = Some(3);
        let form = ProductForm::new("", vec![note]).unwrap();
        assert_eq!(form.title, DEFAULT_FORM_TITLE);
        let answers = form.read(&sent(&[("note", "a\r\nb")])).unwrap();
        assert_eq!(answers.value("note"), "a\nb");
    }

    #[test]
    fn only_single_answer_fields_make_a_product_form() {
        let refused = ProductForm::new("x", vec![field("when", FormFieldType::Date, false)]);
        assert_eq!(
            refused,
            Err(ProductFormError::UnsupportedType("when".into()))
        );
        assert_eq!(
            ProductForm::new("x", Vec::new()),
            Err(ProductFormError::FieldCount(0))
        );
        let twice = vec![
            field("a", FormFieldType::Text, false),
            field("a", FormFieldType::Email, false),
        ];
        assert_eq!(
            ProductForm::new("x", twice),
            Err(ProductFormError::DuplicateField("a".into()))
        );
        let mut choice = field("c", FormFieldType::Select, false);
        choice.options.clear();
        assert_eq!(
            ProductForm::new("x", vec![choice]),
            Err(ProductFormError::NoOptions("c".into()))
        );
    }

    #[test]
    fn the_fingerprint_names_what_the_answers_say() {
        let form = engraving();
        let ada = form.read(&sent(&[("engraving", "Ada")])).unwrap();
        let mut renamed = ada.clone();
        renamed.0[0].title = "Engraved name".into();
        assert!(ada.same_as(&renamed));
        assert_eq!(ada.fingerprint(), renamed.fingerprint());
        let bo = form.read(&sent(&[("engraving", "Bo")])).unwrap();
        assert!(!ada.same_as(&bo));
        assert_ne!(ada.fingerprint(), bo.fingerprint());
        assert_eq!(ada.fingerprint().len(), 16);
        // Length prefixes keep "ab" + "c" apart from "a" + "bc".
        let split = |id: &str, value: &str| {
            FormAnswers(vec![FormAnswer {
                field_id: id.into(),
                title: String::new(),
                value: value.into(),
            }])
        };
        assert_ne!(
            split("ab", "c").fingerprint(),
            split("a", "bc").fingerprint()
        );
    }
}
