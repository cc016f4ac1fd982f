//! Product forms on pages: the fields a product asks for, inside its add-to-cart form, on the
//! page that edits a cart line's answers and on the page that shows a refused add without
//! JavaScript. Every control has a label, a required field is marked for browsers and people,
//! and a field's message stands beside it, named by `aria-describedby`.

use askama::Template;
use vitrine_core::catalog::{ProductForm, SubmittedAnswers};
use vitrine_core::forms::FieldErrors;
use vitrine_core::site::FormFieldType;

/// The name a field's control is sent under: `form[<field id>]`, apart from the add-to-cart
/// form's own `itemId`, `sku` and `quantity` whatever the owner calls a field.
pub(crate) fn field_name(id: &str) -> String {
    format!("form[{id}]")
}

/// The answers a form-encoded body carries, by field id (values as sent; the core trims).
pub(crate) fn submitted_answers(body: &[u8]) -> SubmittedAnswers {
    url::form_urlencoded::parse(body)
        .filter_map(|(name, value)| {
            let id = name.strip_prefix("form[")?.strip_suffix(']')?;
            Some((id.to_owned(), value.into_owned()))
        })
        .collect()
}

/// A product form's fields as one fieldset, with values and messages.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/product_form.html", whitespace = "minimize")]
pub(crate) struct ProductFormFields {
    pub(crate) title: String,
    pub(crate) fields: Vec<AnswerField>,
}

impl askama::filters::HtmlSafe for ProductFormFields {}

/// One field: label, help text, control with the value so far, and its message.
#[derive(Debug, Clone)]
pub(crate) struct AnswerField {
    /// The element id of the control (of the first radio button for a radio group).
    pub(crate) id: String,
    pub(crate) field_id: String,
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) description: String,
    pub(crate) placeholder: String,
    pub(crate) required: bool,
    pub(crate) max_length: u32,
    pub(crate) control: AnswerControl,
    pub(crate) value: String,
    pub(crate) error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AnswerControl {
    /// An `<input>` of this type (text or email).
    Input(&'static str),
    Textarea,
    Select(Vec<String>),
    Radio(Vec<String>),
}

impl AnswerField {
    pub(crate) fn description_id(&self) -> Option<String> {
        (!self.description.is_empty()).then(|| format!("{}-description", self.id))
    }

    pub(crate) fn error_id(&self) -> String {
        format!("{}-error", self.id)
    }

    /// The ids `aria-describedby` names: the help text, then the message.
    pub(crate) fn described_by(&self) -> Option<String> {
        let ids: Vec<String> = self
            .description_id()
            .into_iter()
            .chain(self.error.as_ref().map(|_| self.error_id()))
            .collect();
        (!ids.is_empty()).then(|| ids.join(" "))
    }
}

impl ProductFormFields {
    /// The fields of `form` with element ids under `id_prefix`, the values so far and the
    /// messages of a refused save.
    pub(crate) fn new(
        id_prefix: &str,
        form: &ProductForm,
        values: &SubmittedAnswers,
        errors: &FieldErrors,
    ) -> Self {
        let fields = form
            .fields
            .iter()
            .enumerate()
            .map(|(index, field)| AnswerField {
                // Field ids are owner data; the element id uses the position, which is
                // unique and always a valid id.
                id: format!("{id_prefix}-answer-{index}"),
                field_id: field.id.clone(),
                name: field_name(&field.id),
                title: if field.title.trim().is_empty() {
                    field.id.clone()
                } else {
                    field.title.clone()
                },
                description: field.description.trim().to_owned(),
                placeholder: field.placeholder.clone(),
                required: field.required,
                max_length: ProductForm::max_length(field),
                control: match field.field_type {
                    FormFieldType::Textarea => AnswerControl::Textarea,
                    FormFieldType::Email => AnswerControl::Input("email"),
                    FormFieldType::Select => AnswerControl::Select(field.options.clone()),
                    FormFieldType::Radio => AnswerControl::Radio(field.options.clone()),
                    // A product form holds only single-answer types; text is the rest.
                    _ => AnswerControl::Input("text"),
                },
                value: values.get(&field.id).cloned().unwrap_or_default(),
                error: errors.get(&field.id).cloned(),
            })
            .collect();
        Self {
            title: form.title.clone(),
            fields,
        }
    }
}

/// A page with one product form on it: editing a cart line's answers (`/cart/form`), or an
/// add to the cart refused for its answers without JavaScript.
#[derive(Debug, Clone, Template)]
#[template(path = "commerce/line_form.html", whitespace = "minimize")]
pub(crate) struct LineFormMain {
    pub(crate) heading: String,
    /// What the form is for: the product and its variant.
    pub(crate) lead: String,
    pub(crate) action: &'static str,
    /// Hidden fields the post carries besides the answers (the line, or the item to add).
    pub(crate) hidden: Vec<(&'static str, String)>,
    pub(crate) fields: ProductFormFields,
    pub(crate) alert: Option<String>,
    pub(crate) submit_label: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::site::FormField;

    fn form() -> ProductForm {
        let field = |id: &str, field_type: FormFieldType, description: &str| FormField {
            id: id.into(),
            field_type,
            title: format!("Title of {id}"),
            description: description.into(),
            placeholder: String::new(),
            required: field_type == FormFieldType::Radio,
            options: if field_type == FormFieldType::Radio {
                vec!["None".into(), "Linen & ribbon".into()]
            } else {
                Vec::new()
            },
            max_length: None,
        };
        ProductForm::new(
            "Gift options",
            vec![
                field("wrap", FormFieldType::Radio, ""),
                field("message", FormFieldType::Textarea, "On a card."),
            ],
        )
        .unwrap()
    }

    #[test]
    fn answers_are_read_from_form_fields_only() {
        let answers =
            submitted_answers(b"itemId=jug&form%5Bwrap%5D=Linen&form[message]=Hi+there&form=x");
        assert_eq!(answers.len(), 2);
        assert_eq!(answers["wrap"], "Linen");
        assert_eq!(answers["message"], "Hi there");
    }

    #[test]
    fn fields_keep_values_and_name_their_messages() {
        let values: SubmittedAnswers = [
            ("wrap".to_owned(), "Linen & ribbon".to_owned()),
            ("message".to_owned(), "Happy <birthday>".to_owned()),
        ]
        .into();
        let errors: FieldErrors = [("message".to_owned(), "Too long.".to_owned())].into();
        let html = ProductFormFields::new("p", &form(), &values, &errors).to_string();
        assert!(
            html.contains(r#"<legend class="product-form__title">Gift options</legend>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"name="form[wrap]" type="radio" value="Linen &#38; ribbon" checked"#),
            "{html}"
        );
        assert!(html.contains("required"), "{html}");
        assert!(
            html.contains(r#"aria-describedby="p-answer-1-description p-answer-1-error""#),
            "{html}"
        );
        assert!(html.contains(r#"aria-invalid="true""#), "{html}");
        assert!(
            html.contains(r#"<p class="field__error" id="p-answer-1-error">Too long.</p>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"maxlength="1000""#),
            "the general limit: {html}"
        );
        assert!(
            html.contains(">Happy &#60;birthday&#62;</textarea>"),
            "{html}"
        );
    }
}
