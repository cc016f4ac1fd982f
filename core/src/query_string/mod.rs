//! The query-string parser of 000 §9: nested keys in the style of the `qs` library
//! (`a[b][c]=1`, `a[]=1&a[]=2`, `a[0]=x`) with depth 5, array limit 20 and parameter
//! limit 1000, parsed into a [`serde_json::Value`] tree.
//!
//! Our reading of the rules, which follows `qs` 6 with its default options:
//!
//! - A leading `?` is ignored, so `location.search` can be passed as it is.
//! - The text is split on `&`; only the first 1000 pieces (the parameter limit) are read
//!   and the rest are ignored. Empty pieces count towards the limit, as in `qs`.
//! - Each piece splits at its first `=`, or just after a `]=` when there is one, so
//!   `a[x=y]=1` has the key `a[x=y]`. A piece without `=` has the empty string as value.
//! - Keys and values turn `+` into a space and are percent-decoded; text whose escapes do not
//!   decode to UTF-8 is kept as it is. Pieces with an empty key are ignored.
//! - A key is the text before its first bracket group, followed by at most 5 groups `[...]`
//!   (the depth); from the sixth group on, the rest of the key stays one literal key, so
//!   `a[b][c][d][e][f][g][h]=1` nests `{"a":{"b":{"c":{"d":{"e":{"f":{"[g][h]":"1"}}}}}}}`.
//!   Text between groups is ignored and an unclosed `[` is part of the name, as in `qs`.
//! - `[]` appends to an array. `[n]`, with `n` a plain decimal from 0 to 20 (the array
//!   limit), is an array position; arrays are compacted, so `a[5]=x` is `["x"]`. Larger or
//!   non-canonical numbers (`a[21]`, `a[01]`) are object keys.
//! - A repeated key collects its values in an array. Mixing shapes merges as `qs` does: an
//!   array meeting object keys becomes an object keyed by position, a value meeting an object
//!   becomes an array of both, and a plain value merged into an object becomes a key whose
//!   value is `true`.
//! - Unlike JavaScript, there is no object prototype to protect, so keys like `__proto__`
//!   and `toString` are ordinary keys. Object keys come out in sorted order.
//!
//! Arrays grown with `[]` or repeated keys are bounded by the parameter limit, not by the
//! array limit, as in `qs` before 6.14.1: the array limit exists to stop `a[999999]` from
//! allocating, and the parameter limit already bounds how many values there can be.

mod decode;
mod keys;
mod tree;

use serde_json::Value;

/// How many bracket groups of a key are parsed into nested objects.
pub const DEPTH: usize = 5;
/// The largest index `[n]` that still addresses an array position.
pub const ARRAY_LIMIT: usize = 20;
/// How many `&`-separated pieces are read.
pub const PARAMETER_LIMIT: usize = 1000;

/// Parses a query string into a tree of objects, arrays and strings (and `true` in the one
/// merge case described in the module documentation). The result is always an object.
pub fn parse(query: &str) -> Value {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut root = tree::Node::empty_map();
    if query.is_empty() {
        return root.into_value();
    }
    for (key, value) in decode::pairs(query, PARAMETER_LIMIT) {
        let Some(chain) = keys::segments(&key, DEPTH) else {
            continue;
        };
        let parsed = tree::build(&chain, value, ARRAY_LIMIT);
        root = tree::merge(root, parsed);
    }
    root.into_value()
}

#[cfg(test)]
mod tests;
