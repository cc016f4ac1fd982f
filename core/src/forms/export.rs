//! Owners' export of stored submissions as CSV: one row per submission, one column per field,
//! safe to open in a spreadsheet (no cell starts a formula).

use std::collections::BTreeMap;

use super::submission::StoredSubmission;
use super::values::FieldValue;

/// Characters that make a spreadsheet read a cell as a formula (or, for tab and carriage
/// return, that some spreadsheets strip before doing so).
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A cell that a spreadsheet shows as the text it is: a leading formula character is escaped
/// with an apostrophe, and the cell is quoted when it holds a comma, quote or line break.
pub fn csv_cell(text: &str) -> String {
    let text = if text.starts_with(FORMULA_STARTS) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// A value as one line of text: parts and checked boxes joined with "; ", Likert answers as
/// "statement: answer".
pub fn value_text(value: &FieldValue) -> String {
    match value {
        FieldValue::Single(text) => text.clone(),
        FieldValue::List(items) => items.join("; "),
        FieldValue::Map(answers) => answers
            .iter()
            .map(|(statement, answer)| format!("{statement}: {answer}"))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// A submission's values as (field id, text) pairs in field id order, for the owner's table;
/// values this server cannot read (never written by it) are one `raw` pair.
pub fn submission_fields(submission: &StoredSubmission) -> Vec<(String, String)> {
    match serde_json::from_str::<BTreeMap<String, FieldValue>>(&submission.values_json) {
        Ok(values) => values
            .iter()
            .map(|(field, value)| (field.clone(), value_text(value)))
            .collect(),
        Err(_) => vec![("raw".to_owned(), submission.values_json.clone())],
    }
}

/// The CSV of `submissions`: `id,form_id,created_at,spam,` then every field id in the order
/// it first appears. Stored values that cannot be read (never written by this server) are
/// exported whole in a `raw` column rather than dropped.
pub fn to_csv(submissions: &[StoredSubmission]) -> String {
    let parsed: Vec<(&StoredSubmission, Option<BTreeMap<String, FieldValue>>)> = submissions
        .iter()
        .map(|submission| {
            (
                submission,
                serde_json::from_str(&submission.values_json).ok(),
            )
        })
        .collect();
    let mut fields: Vec<String> = Vec::new();
    for (_, values) in &parsed {
        for id in values.iter().flat_map(|values| values.keys()) {
            if !fields.contains(id) {
                fields.push(id.clone());
            }
        }
    }
    let mut header = vec!["id", "form_id", "created_at", "spam"];
    header.extend(fields.iter().map(String::as_str));
    header.push("raw");
    let mut out = header
        .iter()
        .map(|h| csv_cell(h))
        .collect::<Vec<_>>()
        .join(",")
        + "\r\n";
    for (submission, values) in &parsed {
        let mut row = vec![
            submission.id.to_string(),
            csv_cell(&submission.form_id),
            submission.created_at.to_string(),
            submission.spam.to_string(),
        ];
        for field in &fields {
            let text = values
                .as_ref()
                .and_then(|values| values.get(field))
                .map(value_text)
                .unwrap_or_default();
            row.push(csv_cell(&text));
        }
        row.push(if values.is_some() {
            String::new()
        } else {
            csv_cell(&submission.values_json)
        });
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(id: i64, values_json: &str) -> StoredSubmission {
        StoredSubmission {
            id,
            form_id: "contact".into(),
            collection_id: None,
            object_name: String::new(),
            is_overlay_form: false,
            values_json: values_json.into(),
            spam: false,
            created_at: 1_700_000_000,
        }
    }

    #[test]
    fn submission_fields_read_as_text_and_unreadable_values_stay_whole() {
        assert_eq!(
            submission_fields(&stored(1, r#"{"name":["Ada","Lovelace"],"email":"a@b.c"}"#)),
            [
                ("email".to_owned(), "a@b.c".to_owned()),
                ("name".to_owned(), "Ada; Lovelace".to_owned())
            ]
        );
        assert_eq!(
            submission_fields(&stored(2, "not json")),
            [("raw".to_owned(), "not json".to_owned())]
        );
    }

    #[test]
    fn formulas_are_defused_and_special_characters_quoted() {
        assert_eq!(csv_cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_cell("+1 555"), "'+1 555");
        assert_eq!(csv_cell("-2"), "'-2");
        assert_eq!(csv_cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(csv_cell("plain"), "plain");
    }

    #[test]
    fn every_field_gets_a_column_in_order_of_appearance() {
        let csv = to_csv(&[
            stored(
                1,
                r#"{"name":["Ada","Lovelace"],"email":"ada@example.com"}"#,
            ),
            stored(2, r#"{"email":"=cmd|' /C calc'!A0","scale":{"Fast":"2"}}"#),
            stored(3, "not json"),
        ]);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], "id,form_id,created_at,spam,email,name,scale,raw");
        assert_eq!(
            lines[1],
            "1,contact,1700000000,false,ada@example.com,Ada; Lovelace,,"
        );
        assert_eq!(
            lines[2],
            "2,contact,1700000000,false,'=cmd|' /C calc'!A0,,Fast: 2,"
        );
        assert_eq!(lines[3], "3,contact,1700000000,false,,,,not json");
    }
}
