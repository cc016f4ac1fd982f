//! The query-string parser (000 s9) reads `location.search` and request URLs as they come.
//! It must never panic, always answer an object, and keep within its limits: no array longer
//! than the parameter limit and no more keys on a path than a key has segments.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use vitrine_core::query_string::{DEPTH, PARAMETER_LIMIT, parse};

fuzz_target!(|query: &str| {
    let tree = parse(query);
    assert!(tree.is_object(), "the result is always an object");
    let keys = keys_on_longest_path(&tree);
    assert!(
        keys <= DEPTH + 2,
        "{keys} keys on one path, more than a key has segments: {tree}"
    );
});

/// Object keys come from a key's segments: its name, at most `DEPTH` bracket groups and the
/// literal rest, so no path through the tree crosses more than `DEPTH + 2` of them. Array
/// positions do not count: an array that meets object keys becomes an object keyed by
/// position (as in `qs`), which adds such keys. No array may hold more values than the
/// parameter limit lets a query send.
fn keys_on_longest_path(value: &Value) -> usize {
    match value {
        Value::Array(items) => {
            assert!(
                items.len() <= PARAMETER_LIMIT,
                "more values than parameters"
            );
            items.iter().map(keys_on_longest_path).max().unwrap_or(0)
        }
        Value::Object(entries) => entries
            .iter()
            .map(|(key, entry)| usize::from(!is_position(key)) + keys_on_longest_path(entry))
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

fn is_position(key: &str) -> bool {
    key == "0"
        || (!key.is_empty() && !key.starts_with('0') && key.bytes().all(|b| b.is_ascii_digit()))
}
