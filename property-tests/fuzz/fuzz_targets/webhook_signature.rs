//! A webhook receiver checks `Vitrine-Signature` and `Vitrine-Timestamp` as they arrive, from
//! anyone. Checking must never panic, must refuse whatever the sender did not sign, and must
//! accept exactly what the sender signed.
//!
//! Input: the timestamp header, the signature header and the body, separated by newlines.

#![no_main]

use libfuzzer_sys::fuzz_target;

// The very file the services crate compiles; linking that crate would instrument its HTTP
// and mail clients too.
#[allow(dead_code)]
#[path = "../../../adapters/services/src/signature.rs"]
mod signature;

use signature::{TOLERANCE_SECONDS, sign, verify};

const SECRET: &[u8] = b"whsec-fuzz";
const NOW: i64 = 1_750_000_000;

fuzz_target!(|input: &[u8]| {
    let mut parts = input.splitn(3, |byte| *byte == b'\n');
    let timestamp = parts.next().unwrap_or_default();
    let signature = parts.next().unwrap_or_default();
    let body = parts.next().unwrap_or_default();
    let Ok(timestamp) = std::str::from_utf8(timestamp)
        .unwrap_or("")
        .trim()
        .parse::<i64>()
    else {
        return;
    };
    let signature = String::from_utf8_lossy(signature);
    if verify(SECRET, timestamp, body, &signature, NOW) {
        // Only the sender's own signature, within the tolerance, verifies.
        assert_eq!(signature, sign(SECRET, timestamp, body));
        assert!(NOW.abs_diff(timestamp) <= TOLERANCE_SECONDS.unsigned_abs());
    }
    let genuine = sign(SECRET, timestamp, body);
    let fresh = NOW.abs_diff(timestamp) <= TOLERANCE_SECONDS.unsigned_abs();
    assert_eq!(verify(SECRET, timestamp, body, &genuine, NOW), fresh);
});
