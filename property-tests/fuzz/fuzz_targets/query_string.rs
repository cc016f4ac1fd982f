//! The query-string parser (000 s9) reads `location.search` and request URLs as they come.
//! It must never panic, always answer an object, and keep within its limits: no array longer
//! than the parameter limit and no nesting deeper than the depth allows.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use vitrine_core::query_string::{DEPTH, PARAMETER_LIMIT, parse};

fuzz_target!(|query: &str| {
    let tree = parse(query);
    assert!(tree.is_object(), "the result is always an object");
    check_bounds(&tree, 0);
});

fn check_bounds(value: &Value, depth: usize) {
    // The root object plus one level per bracket group, plus one for an array of values.
    assert!(depth <= DEPTH + 2, "nested deeper than the depth limit");
    match value {
        Value::Array(items) => {
            assert!(items.len() <= PARAMETER_LIMIT, "more values than parameters");
            items.iter().for_each(|item| check_bounds(item, depth + 1));
        }
        Value::Object(entries) => entries
            .values()
            .for_each(|entry| check_bounds(entry, depth + 1)),
        _ => {}
    }
}
