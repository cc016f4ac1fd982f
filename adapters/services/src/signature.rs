//! The webhook signature scheme, for senders and receivers alike.
//!
//! Every webhook POST carries
//! - `Vitrine-Timestamp`: the Unix time in seconds when it was signed;
//! - `Vitrine-Signature`: `v1=` followed by the lowercase hex HMAC-SHA256, keyed with the
//!   shared secret, of the timestamp, a full stop, and the raw request body
//!   (`"{timestamp}.{body}"`);
//! - `Vitrine-Delivery`: the delivery's id, the same on every retry, so a receiver can drop a
//!   duplicate (delivery is at least once).
//!
//! A receiver recomputes the HMAC over the bytes it received, compares in constant time, and
//! refuses timestamps further than five minutes from its clock, so a captured request cannot
//! be replayed later.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

pub const TIMESTAMP_HEADER: &str = "Vitrine-Timestamp";
pub const SIGNATURE_HEADER: &str = "Vitrine-Signature";
pub const DELIVERY_HEADER: &str = "Vitrine-Delivery";
/// How far a timestamp may be from the receiver's clock.
pub const TOLERANCE_SECONDS: i64 = 300;

fn mac(secret: &[u8], timestamp: i64, body: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The `Vitrine-Signature` value for `body` signed at `timestamp`.
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    format!(
        "v1={}",
        hex::encode(mac(secret, timestamp, body).finalize().into_bytes())
    )
}

/// Whether `signature` is the sender's over `body` at `timestamp`, and the timestamp is
/// within [`TOLERANCE_SECONDS`] of `now`.
pub fn verify(secret: &[u8], timestamp: i64, body: &[u8], signature: &str, now: i64) -> bool {
    // The distance as unsigned, so no timestamp a sender writes can overflow it.
    if now.abs_diff(timestamp) > TOLERANCE_SECONDS.unsigned_abs() {
        return false;
    }
    let Some(digest) = signature
        .strip_prefix("v1=")
        .and_then(|hex_digits| hex::decode(hex_digits).ok())
    else {
        return false;
    };
    mac(secret, timestamp, body).verify_slice(&digest).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_for_its_secret_body_and_time() {
        let signature = sign(b"secret", 1_700_000_000, b"{\"a\":1}");
        assert!(signature.starts_with("v1=") && signature.len() == 3 + 64);
        assert!(verify(
            b"secret",
            1_700_000_000,
            b"{\"a\":1}",
            &signature,
            1_700_000_100
        ));
        assert!(!verify(
            b"other",
            1_700_000_000,
            b"{\"a\":1}",
            &signature,
            1_700_000_000
        ));
        assert!(!verify(
            b"secret",
            1_700_000_000,
            b"{\"a\":2}",
            &signature,
            1_700_000_000
        ));
        assert!(!verify(
            b"secret",
            1_700_000_001,
            b"{\"a\":1}",
            &signature,
            1_700_000_001
        ));
        assert!(
            !verify(
                b"secret",
                1_700_000_000,
                b"{\"a\":1}",
                &signature,
                1_700_000_301
            ),
            "too old"
        );
        assert!(!verify(
            b"secret",
            1_700_000_000,
            b"{\"a\":1}",
            "v1=zz",
            1_700_000_000
        ));
    }

    #[test]
    fn a_timestamp_header_at_the_ends_of_the_range_is_refused_without_overflow() {
        // A receiver parses `Vitrine-Timestamp` from whoever sends it; the distance to its
        // clock once overflowed (a panic where overflow checks are on) for such values.
        for (timestamp, now) in [
            (i64::MIN, 1_700_000_000),
            (i64::MAX, -1_700_000_000),
            (i64::MIN, i64::MAX),
            (i64::MAX, i64::MIN),
        ] {
            let signature = sign(b"secret", timestamp, b"{}");
            assert!(!verify(b"secret", timestamp, b"{}", &signature, now));
        }
        let signature = sign(b"secret", i64::MIN, b"{}");
        assert!(verify(
            b"secret",
            i64::MIN,
            b"{}",
            &signature,
            i64::MIN + 300
        ));
    }

    #[test]
    fn the_scheme_matches_a_known_vector() {
        // HMAC-SHA256(key "secret", "0.") computed independently (openssl dgst -sha256 -hmac).
        assert_eq!(
            sign(b"secret", 0, b""),
            "v1=3445798a051818ef95def46c2eb62b43d377ce6e3c29b4d0aec3da0e59577f79"
        );
    }
}
