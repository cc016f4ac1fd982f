//! The one bucketing of web, server and app: SHA-256 over the experiment's name and the
//! visitor's id, each prefixed by its UTF-8 length as four big-endian bytes (so no two pairs
//! collide by moving characters between them), the first four bytes of the digest read as a
//! big-endian number, modulo [`BUCKETS`]. The browser's copy (`web/src/experiments/bucket.ts`)
//! is checked against vectors generated from this one.
//!
//! SHA-256 rather than a faster hash because every platform has it built in (the browser's Web
//! Crypto, the app's system libraries) and it mixes well enough that buckets of two
//! experiments are independent. The modulo's bias is 7,296 in 2^32, under two in a million.

use sha2::{Digest, Sha256};

pub use crate::analytics::VisitorKey;

/// How many buckets visitors are spread over: a weight can be honoured to 0.01 %.
pub const BUCKETS: u16 = 10_000;

/// The visitor's bucket in the experiment, in `0..BUCKETS`.
pub fn bucket(experiment: &str, visitor_id: &str) -> u16 {
    let mut hasher = Sha256::new();
    for field in [experiment, visitor_id] {
        // Names and ids are far shorter than 4 GiB; a longer one would only hash its length
        // modulo 2^32, still deterministically.
        hasher.update((field.len() as u32).to_be_bytes());
        hasher.update(field.as_bytes());
    }
    let digest = hasher.finalize();
    let first = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
    (first % u32::from(BUCKETS)) as u16
}

/// The index of the variant a bucket falls in: the buckets are shared out in variant order,
/// variant `i` taking `weight_i / total` of them (the point `bucket * total / BUCKETS` falls
/// in its cumulative range). None when the weights add up to nothing.
pub fn pick_variant(bucket: u16, weights: &[u32]) -> Option<usize> {
    let total: u64 = weights.iter().map(|w| u64::from(*w)).sum();
    if total == 0 {
        return None;
    }
    let point = u64::from(bucket.min(BUCKETS - 1)) * total / u64::from(BUCKETS);
    let mut end = 0u64;
    for (index, weight) in weights.iter().enumerate() {
        end += u64::from(*weight);
        if point < end {
            return Some(index);
        }
    }
    None
}

/// Whether a sample of `per_ten_thousand` in 10,000 visitors takes the visitor in `bucket`.
pub fn sample_picks(bucket: u16, per_ten_thousand: u16) -> bool {
    bucket < per_ten_thousand
}
