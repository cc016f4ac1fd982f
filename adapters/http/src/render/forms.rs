//! Form and newsletter blocks as complete, accessible HTML forms: every control has a label,
//! required fields are marked for browsers and people, and each field type of spec 001 s3 gets
//! the input that fits it. Without JavaScript they post to [`NO_SCRIPT_ACTION`], which answers
//! a small result page; the `form` and `newsletter` islands take over and use the API calls.

use askama::Template;
use vitrine_core::pages::CaptchaSettingsContext;
use vitrine_core::site::{FormBlock, FormField, FormFieldType};

use super::markup::Markup;

/// Where form and newsletter blocks post without JavaScript (see `forms_page.rs` for why this
/// is not the API call the island uses).
pub(crate) const NO_SCRIPT_ACTION: &str = "/form-submission";
/// Kept as the name the templates use.
pub(crate) const FORM_ACTION: &str = NO_SCRIPT_ACTION;

/// The props of the `form` island: what it needs to build the payload of 000 s7 and to
/// validate as the server does. Field types are the block format's names.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FormIslandProps<'a> {
    pub(crate) form_id: &'a str,
    pub(crate) submit_label: &'a str,
    pub(crate) fields: Vec<FormIslandField<'a>>,
    /// Where to go after success instead of showing the message (000 s4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) success_url: Option<&'a str>,
}

#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FormIslandField<'a> {
    pub(crate) id: &'a str,
    #[serde(rename = "type")]
    pub(crate) field_type: FormFieldType,
    pub(crate) title: &'a str,
    pub(crate) required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_length: Option<u32>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub(crate) options: &'a [String],
}

impl<'a> FormIslandProps<'a> {
    pub(crate) fn new(form: &'a FormBlock) -> Self {
        Self {
            success_url: form
                .success_url
                .as_deref()
                .and_then(vitrine_core::forms::success_url::success_url),
            form_id: &form.form_id,
            submit_label: if form.submit_label.trim().is_empty() {
                "Submit"
            } else {
                &form.submit_label
            },
            fields: form
                .fields
                .iter()
                .map(|field| FormIslandField {
                    id: &field.id,
                    field_type: field.field_type,
                    title: if field.title.trim().is_empty() {
                        &field.id
                    } else {
                        &field.title
                    },
                    required: field.required,
                    max_length: field.max_length.filter(|max| *max > 0),
                    options: &field.options,
                })
                .collect(),
        }
    }
}

/// The props of the `newsletter` island: the block id is the form id of a newsletter.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NewsletterIslandProps<'a> {
    pub(crate) form_id: &'a str,
}

#[derive(Debug, Template)]
#[template(path = "blocks/form.html", whitespace = "minimize")]
pub(crate) struct FormView<'a> {
    pub(crate) form_id: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) fields: Vec<FieldView<'a>>,
    pub(crate) submit_label: &'a str,
    /// Shown after a successful submission; hidden until then.
    pub(crate) success_message: Markup,
    /// The level of section headings: below the form title when there is one.
    pub(crate) section_level: u8,
    /// The element id of the honeypot input, which people never see (see `forms_page.rs`).
    pub(crate) honeypot_id: String,
    /// The captcha widget's container, when the server requires a captcha.
    pub(crate) captcha: Option<CaptchaWidget<'a>>,
}

/// A captcha provider's widget container: the provider's script renders into the element
/// with its class and `data-sitekey`, and adds the response input the island reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CaptchaWidget<'a> {
    pub(crate) class: &'static str,
    pub(crate) provider: &'a str,
    pub(crate) site_key: &'a str,
}

impl<'a> CaptchaWidget<'a> {
    pub(crate) fn new(settings: Option<&'a CaptchaSettingsContext>) -> Option<Self> {
        let settings = settings?;
        let class = match settings.provider.as_str() {
            "recaptcha" => "g-recaptcha",
            "hcaptcha" => "h-captcha",
            "turnstile" => "cf-turnstile",
            _ => return None,
        };
        Some(Self {
            class,
            provider: &settings.provider,
            site_key: &settings.site_key,
        })
    }

    /// The provider's script, loaded once per page that shows a widget.
    pub(crate) fn script(provider: &str) -> Option<&'static str> {
        match provider {
            "recaptcha" => Some("https://www.google.com/recaptcha/api.js"),
            "hcaptcha" => Some("https://js.hcaptcha.com/1/api.js"),
            "turnstile" => Some("https://challenges.cloudflare.com/turnstile/v0/api.js"),
            _ => None,
        }
    }

    /// The hosts the page's Content-Security-Policy must allow for the provider's script and
    /// frames.
    pub(crate) fn hosts(provider: &str) -> &'static str {
        match provider {
            "recaptcha" => "https://www.google.com https://www.gstatic.com",
            "hcaptcha" => "https://hcaptcha.com https://*.hcaptcha.com",
            "turnstile" => "https://challenges.cloudflare.com",
            _ => "",
        }
    }
}

impl<'a> FormView<'a> {
    pub(crate) fn new(block_id: &'a str, form: &'a FormBlock) -> Self {
        let title = form
            .title
            .as_deref()
            .filter(|title| !title.trim().is_empty());
        Self {
            form_id: &form.form_id,
            title,
            fields: form
                .fields
                .iter()
                .enumerate()
                // Field ids are owner data; the element id uses the position, which is
                // unique and always a valid id.
                .map(|(index, field)| {
                    FieldView::new(format!("block-{block_id}-field-{index}"), field)
                })
                .collect(),
            submit_label: if form.submit_label.trim().is_empty() {
                "Submit"
            } else {
                &form.submit_label
            },
            success_message: Markup::sanitized(&form.post_submit_message),
            section_level: if title.is_some() { 3 } else { 2 },
            honeypot_id: format!("block-{block_id}-honeypot"),
            captcha: None,
        }
    }
}

/// One field: its label, help text and control.
#[derive(Debug)]
pub(crate) struct FieldView<'a> {
    /// The element id of the control (or of the group), unique on the page.
    pub(crate) id: String,
    /// The submitted name: the field's id in the form definition.
    pub(crate) name: &'a str,
    pub(crate) title: &'a str,
    pub(crate) description: &'a str,
    pub(crate) placeholder: &'a str,
    pub(crate) required: bool,
    pub(crate) control: Control<'a>,
}

#[derive(Debug)]
pub(crate) enum Control<'a> {
    Input(InputKind),
    Textarea(Option<u32>),
    /// Several inputs under one legend: name, date, time, address, phone (the parts of 000 s3).
    Parts(&'static [Part]),
    /// Radio buttons (one answer) or checkboxes (any number).
    Choice {
        multiple: bool,
        options: &'a [String],
    },
    Select(&'a [String]),
    /// One row of answers from Strongly Disagree to Strongly Agree per statement.
    Likert(&'a [String]),
    Section,
    Hidden,
}

/// The `<input>` attributes of a single-input field type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InputKind {
    pub(crate) input_type: &'static str,
    pub(crate) autocomplete: Option<&'static str>,
    pub(crate) inputmode: Option<&'static str>,
    pub(crate) step: Option<&'static str>,
    /// Text shown before the input, e.g. `@` for a Twitter handle.
    pub(crate) prefix: Option<&'static str>,
}

impl InputKind {
    const fn of(input_type: &'static str) -> Self {
        Self {
            input_type,
            autocomplete: None,
            inputmode: None,
            step: None,
            prefix: None,
        }
    }
}

/// One input of a multi-part field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    /// Appended to the field's name and id.
    pub(crate) key: &'static str,
    pub(crate) label: &'static str,
    pub(crate) autocomplete: &'static str,
    pub(crate) numeric: bool,
    /// Whether a required field needs this part (an address's second line never does).
    pub(crate) needed: bool,
    /// A choice instead of free text (the AM/PM of a time).
    pub(crate) choices: &'static [&'static str],
}

const fn part(
    key: &'static str,
    label: &'static str,
    autocomplete: &'static str,
    numeric: bool,
) -> Part {
    Part {
        key,
        label,
        autocomplete,
        numeric,
        needed: true,
        choices: &[],
    }
}

const NAME_PARTS: &[Part] = &[
    part("first", "First", "given-name", false),
    part("last", "Last", "family-name", false),
];
const DATE_PARTS: &[Part] = &[
    part("month", "Month", "off", true),
    part("day", "Day", "off", true),
    part("year", "Year", "off", true),
];
const TIME_PARTS: &[Part] = &[
    part("hour", "Hour", "off", true),
    part("minute", "Minute", "off", true),
    Part {
        needed: false,
        ..part("second", "Second", "off", true)
    },
    Part {
        choices: &["AM", "PM"],
        ..part("ampm", "AM/PM", "off", false)
    },
];
const ADDRESS_PARTS: &[Part] = &[
    part("line1", "Address line 1", "address-line1", false),
    Part {
        needed: false,
        ..part("line2", "Address line 2", "address-line2", false)
    },
    part("city", "City", "address-level2", false),
    part("state", "State/Province", "address-level1", false),
    part("zip", "Zip/Postal code", "postal-code", false),
    part("country", "Country", "country-name", false),
];
const PHONE_PARTS: &[Part] = &[
    part("areacode", "Area code", "tel-area-code", true),
    part("prefix", "Prefix", "tel-local-prefix", true),
    part("line", "Line", "tel-local-suffix", true),
];

/// The five answers of a Likert scale (000 s3), from -2 to 2.
pub(crate) const LIKERT_ANSWERS: [(&str, &str); 5] = [
    ("-2", "Strongly Disagree"),
    ("-1", "Disagree"),
    ("0", "Neutral"),
    ("1", "Agree"),
    ("2", "Strongly Agree"),
];

impl<'a> FieldView<'a> {
    fn new(id: String, field: &'a FormField) -> Self {
        let control = match field.field_type {
            FormFieldType::Text => Control::Input(InputKind::of("text")),
            FormFieldType::Textarea => Control::Textarea(field.max_length.filter(|max| *max > 0)),
            FormFieldType::Email => Control::Input(InputKind {
                autocomplete: Some("email"),
                ..InputKind::of("email")
            }),
            FormFieldType::Number => Control::Input(InputKind {
                step: Some("any"),
                ..InputKind::of("number")
            }),
            FormFieldType::Website => Control::Input(InputKind {
                autocomplete: Some("url"),
                ..InputKind::of("url")
            }),
            FormFieldType::Currency => Control::Input(InputKind {
                inputmode: Some("decimal"),
                step: Some("0.01"),
                ..InputKind::of("number")
            }),
            FormFieldType::Password => Control::Input(InputKind {
                autocomplete: Some("off"),
                ..InputKind::of("password")
            }),
            FormFieldType::Twitter => Control::Input(InputKind {
                autocomplete: Some("off"),
                prefix: Some("@"),
                ..InputKind::of("text")
            }),
            FormFieldType::Date => Control::Parts(DATE_PARTS),
            FormFieldType::Time => Control::Parts(TIME_PARTS),
            FormFieldType::Name => Control::Parts(NAME_PARTS),
            FormFieldType::Address => Control::Parts(ADDRESS_PARTS),
            FormFieldType::Phone => Control::Parts(PHONE_PARTS),
            FormFieldType::Section => Control::Section,
            FormFieldType::Radio => Control::Choice {
                multiple: false,
                options: &field.options,
            },
            FormFieldType::Checkbox => Control::Choice {
                multiple: true,
                options: &field.options,
            },
            FormFieldType::Select => Control::Select(&field.options),
            FormFieldType::Likert => Control::Likert(&field.options),
            FormFieldType::Hidden => Control::Hidden,
        };
        Self {
            id,
            name: &field.id,
            title: if field.title.trim().is_empty() {
                &field.id
            } else {
                &field.title
            },
            description: field.description.trim(),
            placeholder: &field.placeholder,
            required: field.required,
            control,
        }
    }

    /// The id of the help text, for `aria-describedby`.
    pub(crate) fn description_id(&self) -> Option<String> {
        (!self.description.is_empty()).then(|| format!("{}-description", self.id))
    }

    pub(crate) fn likert_answers(&self) -> &'static [(&'static str, &'static str)] {
        &LIKERT_ANSWERS
    }
}

/// A newsletter sign-up: one email field and a button.
#[derive(Debug, Template)]
#[template(path = "blocks/newsletter.html", whitespace = "minimize")]
pub(crate) struct NewsletterView<'a> {
    pub(crate) id: &'a str,
    pub(crate) title: &'a str,
    pub(crate) description: &'a str,
    pub(crate) button_label: &'a str,
    pub(crate) placeholder: &'a str,
    pub(crate) captcha: Option<CaptchaWidget<'a>>,
}
