//! Splitting a query string into decoded key and value pairs.

use std::collections::HashMap;

use super::tree::Node;

/// The decoded pairs of a query string, in order of first appearance, with the values of a
/// repeated key collected into one array.
pub(super) fn pairs(query: &str, parameter_limit: usize) -> Vec<(String, Node)> {
    let mut pairs: Vec<(String, Node)> = Vec::new();
    let mut positions: HashMap<String, usize> = HashMap::new();
    for piece in query.split('&').take(parameter_limit) {
        let (raw_key, raw_value) = split_piece(piece);
        let key = decode_component(raw_key);
        if key.is_empty() {
            continue;
        }
        let value = Node::Text(decode_component(raw_value));
        match positions.get(&key) {
            Some(&position) => {
                let slot = &mut pairs[position].1;
                let previous = std::mem::replace(slot, Node::Flag);
                *slot = previous.combine(value);
            }
            None => {
                positions.insert(key.clone(), pairs.len());
                pairs.push((key, value));
            }
        }
    }
    pairs
}

/// Splits `key=value` at the first `=`, or just after a `]=` when the key has one.
fn split_piece(piece: &str) -> (&str, &str) {
    let split_at = match piece.find("]=") {
        Some(bracket) => Some(bracket + 1),
        None => piece.find('='),
    };
    match split_at {
        Some(at) => (&piece[..at], &piece[at + 1..]),
        None => (piece, ""),
    }
}

/// Turns `+` into a space and decodes percent escapes. Like `decodeURIComponent` in `qs`, a
/// text whose escapes are malformed or do not form UTF-8 is returned with only the `+`
/// replaced.
pub(super) fn decode_component(raw: &str) -> String {
    let spaced = raw.replace('+', " ");
    if !spaced.contains('%') {
        return spaced;
    }
    let bytes = spaced.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let high = bytes.get(index + 1).and_then(|b| (*b as char).to_digit(16));
            let low = bytes.get(index + 2).and_then(|b| (*b as char).to_digit(16));
            let (Some(high), Some(low)) = (high, low) else {
                return spaced;
            };
            decoded.push((high * 16 + low) as u8);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(decoded).unwrap_or(spaced)
}
