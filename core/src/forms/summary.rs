//! Form summary parts of spec 000 s3: the labelled parts of multi-part values, as the owner
//! reads them in a notification or an export, with `N/A` for empty parts.

use super::messages::NOT_AVAILABLE;
use super::model::FieldKind;
use super::values::FieldValue;

/// The part labels of a multi-part field type, in the order of its value's array.
pub fn summary_parts(kind: &FieldKind) -> Option<&'static [&'static str]> {
    match kind {
        FieldKind::Name => Some(&["First", "Last"]),
        FieldKind::Phone { .. } => Some(&["Country", "Areacode", "Prefix", "Line"]),
        FieldKind::Address => Some(&["Line1", "Line2", "City", "State", "Zip", "Country"]),
        FieldKind::Date => Some(&["Month", "Day", "Year"]),
        FieldKind::Time => Some(&["Hour", "Minute", "Second", "Ampm"]),
        _ => None,
    }
}

/// One labelled line of a summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryLine {
    pub label: String,
    pub text: String,
}

fn or_not_available(text: &str) -> String {
    if text.trim().is_empty() {
        NOT_AVAILABLE.to_owned()
    } else {
        text.trim().to_owned()
    }
}

/// The summary of one field's value: a line per part for multi-part fields, a line per
/// statement for Likert fields (with the answer's label), one line otherwise.
pub fn summarize(title: &str, kind: &FieldKind, value: &FieldValue) -> Vec<SummaryLine> {
    match (summary_parts(kind), value) {
        (Some(labels), FieldValue::List(parts)) => labels
            .iter()
            .enumerate()
            .map(|(index, label)| SummaryLine {
                label: format!("{title} {label}"),
                text: or_not_available(parts.get(index).map(String::as_str).unwrap_or("")),
            })
            .collect(),
        (_, FieldValue::Map(answers)) => answers
            .iter()
            .map(|(statement, answer)| SummaryLine {
                label: format!("{title}: {statement}"),
                text: super::likert::LikertAnswer::parse(answer)
                    .map(|answer| answer.label().to_owned())
                    .unwrap_or_else(|_| or_not_available(answer)),
            })
            .collect(),
        (_, FieldValue::List(items)) => vec![SummaryLine {
            label: title.to_owned(),
            text: or_not_available(&items.join(", ")),
        }],
        (_, FieldValue::Single(text)) => vec![SummaryLine {
            label: title.to_owned(),
            text: or_not_available(text),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_parts_show_not_available() {
        let value = FieldValue::List(vec!["".into(), "555".into(), "123".into(), "4567".into()]);
        let lines = summarize(
            "Phone",
            &FieldKind::Phone {
                show_country_code: false,
            },
            &value,
        );
        let texts: Vec<_> = lines
            .iter()
            .map(|l| (l.label.as_str(), l.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                ("Phone Country", "N/A"),
                ("Phone Areacode", "555"),
                ("Phone Prefix", "123"),
                ("Phone Line", "4567")
            ]
        );
    }

    #[test]
    fn every_multi_part_type_has_its_spec_labels() {
        assert_eq!(summary_parts(&FieldKind::Name).unwrap(), ["First", "Last"]);
        assert_eq!(
            summary_parts(&FieldKind::Address).unwrap(),
            ["Line1", "Line2", "City", "State", "Zip", "Country"]
        );
        assert_eq!(
            summary_parts(&FieldKind::Date).unwrap(),
            ["Month", "Day", "Year"]
        );
        assert_eq!(
            summary_parts(&FieldKind::Time).unwrap(),
            ["Hour", "Minute", "Second", "Ampm"]
        );
        assert!(summary_parts(&FieldKind::Email).is_none());
    }
}
