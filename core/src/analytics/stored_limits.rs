//! How much of a census row is stored: what a visitor sends is bounded before it reaches the
//! analytics store, so no call can fill the disk. Bodies are bounded by the HTTP adapter
//! (`MAX_BODY_BYTES`); the texts inside them here.

use serde_json::Value;

use crate::analytics::StoredHit;

/// The most bytes the body of one census or event call may have (16 KiB). A page view, a
/// button event or a batch of 20 error reports fits many times over.
pub const MAX_BODY_BYTES: usize = 16 * 1024;
/// The longest page path kept, in characters; longer ones are cut.
pub const MAX_PAGE_PATH_CHARS: usize = 2048;
/// The longest report subject kept (a referring host, a button's text, a form id, a metric
/// name), in characters.
pub const MAX_SUBJECT_CHARS: usize = 200;
/// The longest text kept anywhere in a row's data, in characters: the length a stack trace is
/// already cut to (000 s9), so an error report keeps all of its stack.
pub const MAX_TEXT_CHARS: usize = crate::analytics::MAX_STACK_CHARS;

/// `hit` with every text cut to its limit: the page path, the subject, and each string (keys
/// included) of the data.
pub fn bounded_hit(mut hit: StoredHit) -> StoredHit {
    hit.page_path = hit
        .page_path
        .map(|path| cut(&path, MAX_PAGE_PATH_CHARS).to_owned());
    hit.subject = hit
        .subject
        .map(|subject| cut(&subject, MAX_SUBJECT_CHARS).to_owned());
    hit.data = match serde_json::from_str::<Value>(&hit.data) {
        Ok(value) => bounded_value(value).to_string(),
        Err(_) => cut(&hit.data, MAX_TEXT_CHARS).to_owned(),
    };
    hit
}

fn bounded_value(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(cut(&text, MAX_TEXT_CHARS).to_owned()),
        Value::Array(values) => values.into_iter().map(bounded_value).collect(),
        Value::Object(map) => map
            .into_iter()
            .map(|(key, value)| {
                (
                    cut(&key, MAX_SUBJECT_CHARS).to_owned(),
                    bounded_value(value),
                )
            })
            .collect(),
        other => other,
    }
}

/// The first `max` characters of `text`.
fn cut(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(at, _)| &text[..at])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn hit(page_path: String, subject: String, data: Value) -> StoredHit {
        StoredHit {
            kind: "button-click".into(),
            visitor_key: None,
            cookieless: false,
            page_path: Some(page_path),
            data: data.to_string(),
            recorded_at_ms: 0,
            subject: Some(subject),
            metric_value: None,
            campaign: None,
            device: None,
        }
    }

    #[test]
    fn every_text_of_a_row_is_cut_to_its_limit() {
        let long = "é".repeat(MAX_TEXT_CHARS + 10);
        let stored = bounded_hit(hit(
            format!("/{long}"),
            long.clone(),
            json!({"buttonText": long, "nested": [{"deep": long}], long.clone(): 1, "n": 5}),
        ));
        assert_eq!(
            stored.page_path.unwrap().chars().count(),
            MAX_PAGE_PATH_CHARS
        );
        assert_eq!(stored.subject.unwrap().chars().count(), MAX_SUBJECT_CHARS);
        let data: Value = serde_json::from_str(&stored.data).unwrap();
        assert_eq!(
            data["buttonText"].as_str().unwrap().chars().count(),
            MAX_TEXT_CHARS
        );
        assert_eq!(
            data["nested"][0]["deep"].as_str().unwrap().chars().count(),
            MAX_TEXT_CHARS
        );
        assert_eq!(data["n"], 5);
        let key = data
            .as_object()
            .unwrap()
            .keys()
            .find(|k| k.starts_with('é'))
            .unwrap();
        assert_eq!(key.chars().count(), MAX_SUBJECT_CHARS);
    }

    #[test]
    fn short_texts_are_kept_whole() {
        let stored = bounded_hit(hit(
            "/shop".into(),
            "Buy".into(),
            json!({"buttonText": "Buy"}),
        ));
        assert_eq!(stored.page_path.as_deref(), Some("/shop"));
        assert_eq!(stored.subject.as_deref(), Some("Buy"));
        assert_eq!(stored.data, r#"{"buttonText":"Buy"}"#);
    }
}
