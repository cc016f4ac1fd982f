//! Splitting a decoded key into its parent name and bracket groups.

/// The segments of a key: the parent name (if not empty), up to `depth` groups `[...]`, and,
/// when more groups follow, the rest of the key from the next group on wrapped in one more
/// pair of brackets. `None` when the key yields no segment at all.
///
/// A group is a `[`, then characters that are neither `[` nor `]`, then `]`, as the regular
/// expression `\[[^[\]]*]` of `qs` finds them.
pub(super) fn segments(key: &str, depth: usize) -> Option<Vec<String>> {
    let mut groups = BracketGroups { key, from: 0 };
    let first = groups.next();
    let parent = match first {
        Some((start, _)) => &key[..start],
        None => key,
    };
    let mut chain = Vec::new();
    if !parent.is_empty() {
        chain.push(parent.to_owned());
    }
    let mut next = first;
    let mut taken = 0;
    while let Some((start, end)) = next {
        if taken == depth {
            chain.push(format!("[{}]", &key[start..]));
            break;
        }
        chain.push(key[start..end].to_owned());
        taken += 1;
        next = groups.next();
    }
    (!chain.is_empty()).then_some(chain)
}

/// The byte ranges of successive bracket groups in a key.
struct BracketGroups<'a> {
    key: &'a str,
    from: usize,
}

impl Iterator for BracketGroups<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let bytes = self.key.as_bytes();
        let mut open = None;
        for (index, &byte) in bytes.iter().enumerate().skip(self.from) {
            match (byte, open) {
                (b'[', _) => open = Some(index),
                (b']', Some(start)) => {
                    self.from = index + 1;
                    return Some((start, index + 1));
                }
                _ => {}
            }
        }
        self.from = bytes.len();
        None
    }
}
