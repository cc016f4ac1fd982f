//! The tree a query string parses into while it is being built, and the `qs` merge rules.
//!
//! Arrays may have holes while parsing (`a[3]=x` sets position 3 of an empty array); they are
//! compacted when the tree is turned into a [`Value`].

use std::collections::BTreeMap;

use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Text(String),
    /// The `true` that `qs` stores when a plain value is merged into an object.
    Flag,
    List(Vec<Option<Node>>),
    Map(BTreeMap<String, Node>),
}

impl Node {
    pub(super) fn empty_map() -> Self {
        Node::Map(BTreeMap::new())
    }

    fn is_container(&self) -> bool {
        matches!(self, Node::List(_) | Node::Map(_))
    }

    /// `[].concat(self, other)`: the items of both, where a non-array counts as one item.
    pub(super) fn combine(self, other: Node) -> Node {
        let mut items = self.into_items();
        items.extend(other.into_items());
        Node::List(items)
    }

    fn into_items(self) -> Vec<Option<Node>> {
        match self {
            Node::List(items) => items,
            other => vec![Some(other)],
        }
    }

    /// Turns the finished tree into JSON, dropping the holes of arrays.
    pub(super) fn into_value(self) -> Value {
        match self {
            Node::Text(text) => Value::String(text),
            Node::Flag => Value::Bool(true),
            Node::List(items) => {
                Value::Array(items.into_iter().flatten().map(Node::into_value).collect())
            }
            Node::Map(entries) => Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
        }
    }
}

/// The tree one key chain and its value stand for, built from the innermost segment out.
pub(super) fn build(chain: &[String], leaf: Node, array_limit: usize) -> Node {
    chain.iter().rev().fold(leaf, |inner, segment| {
        if segment == "[]" {
            return Node::List(inner.into_items());
        }
        let bracketed = segment.len() >= 2 && segment.starts_with('[') && segment.ends_with(']');
        let name = if bracketed {
            &segment[1..segment.len() - 1]
        } else {
            segment.as_str()
        };
        match array_index(name, array_limit) {
            Some(index) if bracketed => {
                let mut items: Vec<Option<Node>> = (0..index).map(|_| None).collect();
                items.push(Some(inner));
                Node::List(items)
            }
            _ => Node::Map(BTreeMap::from([(name.to_owned(), inner)])),
        }
    })
}

/// A canonical decimal (no sign, no leading zero) no larger than the array limit.
fn array_index(name: &str, array_limit: usize) -> Option<usize> {
    let canonical = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_digit())
        && (name == "0" || !name.starts_with('0'));
    // Long digit strings are beyond any sane limit; checking the length first keeps the
    // parse from overflowing.
    if !canonical || name.len() > 19 {
        return None;
    }
    name.parse::<usize>()
        .ok()
        .filter(|&index| index <= array_limit)
}

/// Merges `source` into `target` as `qs`'s `utils.merge` does.
pub(super) fn merge(target: Node, source: Node) -> Node {
    match source {
        // An empty string is falsy in JavaScript, and `merge` returns early on it.
        Node::Text(text) if text.is_empty() => target,
        Node::Text(_) | Node::Flag => merge_plain(target, source),
        source => merge_container(target, source),
    }
}

fn merge_plain(target: Node, source: Node) -> Node {
    match target {
        Node::List(mut items) => {
            items.push(Some(source));
            Node::List(items)
        }
        Node::Map(mut entries) => {
            let key = match source {
                Node::Text(text) => text,
                _ => "true".to_owned(),
            };
            entries.insert(key, Node::Flag);
            Node::Map(entries)
        }
        plain => Node::List(vec![Some(plain), Some(source)]),
    }
}

fn merge_container(target: Node, source: Node) -> Node {
    match (target, source) {
        (plain @ (Node::Text(_) | Node::Flag), source) => {
            Node::List(vec![Some(plain)]).combine(source)
        }
        (Node::List(mut items), Node::List(incoming)) => {
            for (index, item) in incoming.into_iter().enumerate() {
                // `forEach` skips the holes of the source array.
                let Some(item) = item else { continue };
                if !items.get(index).is_some_and(Option::is_some) {
                    if index >= items.len() {
                        items.resize_with(index + 1, || None);
                    }
                    items[index] = Some(item);
                    continue;
                }
                let slot = &mut items[index];
                if slot.as_ref().is_some_and(Node::is_container) && item.is_container() {
                    *slot = slot.take().map(|existing| merge(existing, item));
                } else {
                    items.push(Some(item));
                }
            }
            Node::List(items)
        }
        (Node::List(items), source) => merge_container(Node::Map(list_to_map(items)), source),
        (Node::Map(mut entries), source) => {
            let incoming = match source {
                Node::List(items) => list_to_map(items),
                Node::Map(map) => map,
                plain => return merge_plain(Node::Map(entries), plain),
            };
            for (key, value) in incoming {
                let merged = match entries.remove(&key) {
                    Some(existing) => merge(existing, value),
                    None => value,
                };
                entries.insert(key, merged);
            }
            Node::Map(entries)
        }
    }
}

/// `arrayToObject`: the present items of an array, keyed by position.
fn list_to_map(items: Vec<Option<Node>>) -> BTreeMap<String, Node> {
    items
        .into_iter()
        .enumerate()
        .filter_map(|(index, item)| item.map(|node| (index.to_string(), node)))
        .collect()
}
