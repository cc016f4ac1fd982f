//! The form model: a form's definition as the submission flow needs it, built from a form or
//! newsletter block of a published page, with every field type of spec 001 s3 and its
//! editable properties.

use crate::site::{BlockContent, FormBlock, FormField, FormFieldType, SafeHtml};

/// The field id a newsletter block's single email field has.
pub const NEWSLETTER_EMAIL_FIELD: &str = "email";

/// A form the visitor can submit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormDefinition {
    pub form_id: String,
    pub kind: FormKind,
    pub fields: Vec<FieldDefinition>,
    /// Shown in place of the form after a successful submission; sanitised on construction.
    pub post_submit_message: SafeHtml,
    /// Where the visitor goes after a successful submission instead (a checked URL).
    pub success_url: Option<String>,
}

/// Contact-style forms and newsletter sign-ups differ in how errors are summarised (000 s8)
/// and in how duplicates are treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormKind {
    Form,
    Newsletter,
}

/// One field with the properties of its type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDefinition {
    pub id: String,
    pub title: String,
    pub required: bool,
    pub kind: FieldKind,
}

/// The field types of spec 001 s3 with their type-specific properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldKind {
    Text,
    Textarea { max_length: Option<u32> },
    Email,
    Number,
    Website,
    Currency { currency_symbol: String },
    Password,
    Twitter,
    Date,
    Time,
    Name,
    Address,
    Phone { show_country_code: bool },
    Section { underline: bool },
    Radio { options: Vec<String> },
    Checkbox { options: Vec<String> },
    Select { options: Vec<String> },
    Likert { statements: Vec<String> },
    Hidden { key: String, value: String },
}

impl FieldKind {
    /// Sections only structure the form; they hold no value.
    pub fn holds_value(&self) -> bool {
        !matches!(self, Self::Section { .. })
    }
}

impl FieldDefinition {
    /// The definition of one block field. Properties the block format does not carry yet
    /// take the editor's defaults: a `$` currency symbol, a phone without country code, a
    /// section without underline, and a hidden field keyed by its own id.
    pub fn from_block_field(field: &FormField) -> Self {
        let kind = match field.field_type {
            FormFieldType::Text => FieldKind::Text,
            // 0 means "no limit" (000 s5: 0 or invalid means no counter).
            FormFieldType::Textarea => FieldKind::Textarea {
                max_length: field.max_length.filter(|max| *max > 0),
            },
            FormFieldType::Email => FieldKind::Email,
            FormFieldType::Number => FieldKind::Number,
            FormFieldType::Website => FieldKind::Website,
            FormFieldType::Currency => FieldKind::Currency {
                currency_symbol: "$".to_owned(),
            },
            FormFieldType::Password => FieldKind::Password,
            FormFieldType::Twitter => FieldKind::Twitter,
            FormFieldType::Date => FieldKind::Date,
            FormFieldType::Time => FieldKind::Time,
            FormFieldType::Name => FieldKind::Name,
            FormFieldType::Address => FieldKind::Address,
            FormFieldType::Phone => FieldKind::Phone {
                show_country_code: false,
            },
            FormFieldType::Section => FieldKind::Section { underline: false },
            FormFieldType::Radio => FieldKind::Radio {
                options: field.options.clone(),
            },
            FormFieldType::Checkbox => FieldKind::Checkbox {
                options: field.options.clone(),
            },
            FormFieldType::Select => FieldKind::Select {
                options: field.options.clone(),
            },
            FormFieldType::Likert => FieldKind::Likert {
                statements: field.options.clone(),
            },
            FormFieldType::Hidden => FieldKind::Hidden {
                key: field.id.clone(),
                value: String::new(),
            },
        };
        Self {
            id: field.id.clone(),
            title: if field.title.trim().is_empty() {
                field.id.clone()
            } else {
                field.title.clone()
            },
            required: field.required,
            kind,
        }
    }
}

impl FormDefinition {
    pub fn from_form_block(block: &FormBlock) -> Self {
        Self {
            form_id: block.form_id.clone(),
            kind: FormKind::Form,
            fields: block
                .fields
                .iter()
                .map(FieldDefinition::from_block_field)
                .collect(),
            post_submit_message: block.post_submit_message.clone(),
            success_url: block
                .success_url
                .as_deref()
                .and_then(super::success_url::success_url)
                .map(str::to_owned),
        }
    }

    /// A newsletter block is a form whose id is the block's id and whose only field is a
    /// required email address.
    pub fn newsletter(block_id: &str) -> Self {
        Self {
            form_id: block_id.to_owned(),
            kind: FormKind::Newsletter,
            fields: vec![FieldDefinition {
                id: NEWSLETTER_EMAIL_FIELD.to_owned(),
                title: "Email address".to_owned(),
                required: true,
                kind: FieldKind::Email,
            }],
            post_submit_message: SafeHtml::sanitize("<p>Thank you for signing up.</p>"),
            success_url: None,
        }
    }

    /// The definition a block provides for `form_id`, if it is that form.
    pub fn from_block(block_id: &str, content: &BlockContent, form_id: &str) -> Option<Self> {
        match content {
            BlockContent::Form(form) if form.form_id == form_id => {
                Some(Self::from_form_block(form))
            }
            BlockContent::Newsletter { .. } if block_id == form_id => {
                Some(Self::newsletter(block_id))
            }
            _ => None,
        }
    }

    pub fn field(&self, id: &str) -> Option<&FieldDefinition> {
        self.fields.iter().find(|field| field.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(field_type: FormFieldType) -> FormField {
        FormField {
            id: "f".into(),
            field_type,
            title: String::new(),
            description: String::new(),
            placeholder: String::new(),
            required: false,
            options: vec!["a".into()],
            max_length: Some(0),
        }
    }

    #[test]
    fn a_zero_max_length_means_no_limit() {
        let definition = FieldDefinition::from_block_field(&field(FormFieldType::Textarea));
        assert_eq!(definition.kind, FieldKind::Textarea { max_length: None });
        assert_eq!(
            definition.title, "f",
            "an untitled field is named by its id"
        );
    }

    #[test]
    fn likert_statements_come_from_the_options() {
        let definition = FieldDefinition::from_block_field(&field(FormFieldType::Likert));
        assert_eq!(
            definition.kind,
            FieldKind::Likert {
                statements: vec!["a".into()]
            }
        );
    }

    #[test]
    fn a_newsletter_is_one_required_email_field() {
        let form = FormDefinition::newsletter("news-1");
        assert_eq!(form.kind, FormKind::Newsletter);
        assert_eq!(form.fields.len(), 1);
        assert!(form.field(NEWSLETTER_EMAIL_FIELD).unwrap().required);
    }
}
