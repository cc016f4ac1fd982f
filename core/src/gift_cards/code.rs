//! Gift card codes: 16 characters a person can read aloud and type, made from randomness the
//! caller supplies (the core has none).
//!
//! The alphabet is Crockford's base 32: the digits and the letters without I, L, O and U, so
//! no two characters look alike. Each character carries 5 bits, so a code holds 80 random
//! bits: guessing one is out of reach. Codes are shown in groups of four
//! (`7K3M-Q9XD-2HCW-V5RA`). What a person types is read generously: case, spaces and dashes
//! do not matter, and the letters Crockford maps to digits (O as 0, I and L as 1) are read as
//! those digits.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Crockford's base 32 alphabet, in the order of the values 0 to 31.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Why a typed text is not a gift card code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a gift card code has 16 letters and digits, such as ABCD-EFGH-JKMN-PQRS")]
pub struct InvalidGiftCardCode;

/// A gift card's code, kept as its 16 characters without dashes, upper case. It is a secret
/// like cash: its `Debug` shows only the last four characters, so logs never hold one.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GiftCardCode(String);

impl GiftCardCode {
    /// How many characters a code has, dashes aside.
    pub const LENGTH: usize = 16;

    /// The code made from 80 random bits, 5 bits per character.
    pub fn from_random(bytes: [u8; 10]) -> Self {
        let bits = bytes
            .iter()
            .fold(0u128, |bits, byte| (bits << 8) | u128::from(*byte));
        let code = (0..Self::LENGTH)
            .rev()
            .map(|index| {
                // Masked to 5 bits, so the index is always inside the alphabet.
                let value = (bits >> (index * 5)) & 0b1_1111;
                char::from(ALPHABET[value as usize])
            })
            .collect();
        Self(code)
    }

    /// A code as a person typed it: case, spaces and dashes aside, with O read as 0 and I
    /// and L as 1.
    pub fn parse(typed: &str) -> Result<Self, InvalidGiftCardCode> {
        let mut code = String::with_capacity(Self::LENGTH);
        for c in typed.chars() {
            let c = match c.to_ascii_uppercase() {
                ' ' | '-' | '\t' => continue,
                'O' => '0',
                'I' | 'L' => '1',
                c if c.is_ascii() && ALPHABET.contains(&(c as u8)) => c,
                _ => return Err(InvalidGiftCardCode),
            };
            code.push(c);
        }
        if code.len() == Self::LENGTH {
            Ok(Self(code))
        } else {
            Err(InvalidGiftCardCode)
        }
    }

    /// The 16 characters without dashes, as stored.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The last four characters, enough to tell cards apart without revealing one.
    pub fn last4(&self) -> &str {
        &self.0[Self::LENGTH - 4..]
    }
}

/// The code in groups of four, as a person reads it: `7K3M-Q9XD-2HCW-V5RA`.
impl fmt::Display for GiftCardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, group) in self.0.as_bytes().chunks(4).enumerate() {
            if index > 0 {
                f.write_str("-")?;
            }
            // The code is ASCII, so every chunk is a whole string.
            f.write_str(std::str::from_utf8(group).map_err(|_| fmt::Error)?)?;
        }
        Ok(())
    }
}

impl fmt::Debug for GiftCardCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GiftCardCode(…{})", self.last4())
    }
}

/// Where new codes come from. The core has no randomness, so the composition root hands the
/// cart service a source backed by the operating system's generator.
pub trait GiftCardCodeSource: Send + Sync {
    fn next_code(&self) -> GiftCardCode;
}

/// Codes numbered 1, 2, 3 ... from a starting number: predictable, so only for tests.
#[derive(Debug, Default)]
pub struct SequentialGiftCardCodes {
    next: AtomicU64,
}

impl SequentialGiftCardCodes {
    pub fn new() -> Self {
        Self::starting_at(1)
    }

    pub fn starting_at(first: u64) -> Self {
        Self {
            next: AtomicU64::new(first),
        }
    }
}

impl GiftCardCodeSource for SequentialGiftCardCodes {
    fn next_code(&self) -> GiftCardCode {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let mut bytes = [0u8; 10];
        bytes[2..].copy_from_slice(&n.to_be_bytes());
        GiftCardCode::from_random(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eighty_bits_become_sixteen_characters_in_groups_of_four() {
        let zero = GiftCardCode::from_random([0; 10]);
        assert_eq!(zero.to_string(), "0000-0000-0000-0000");
        let ones = GiftCardCode::from_random([0xff; 10]);
        assert_eq!(ones.as_str(), "ZZZZZZZZZZZZZZZZ");
        let mixed =
            GiftCardCode::from_random([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x01, 0x23]);
        assert_eq!(mixed.to_string(), "04HM-ASW9-NF6Y-Y093");
        assert_eq!(mixed.last4(), "Y093");
    }

    #[test]
    fn typed_codes_are_read_without_case_spaces_dashes_or_look_alike_letters() {
        let code = GiftCardCode::parse("04HM-ASW9-NF6Y-Y093").unwrap();
        for typed in [
            "04hm asw9 nf6y y093",
            " 04HMASW9NF6YY093 ",
            "O4HM-ASW9-NF6Y-YO93",
            "04hm-asw9-nf6y-y093\t",
        ] {
            assert_eq!(GiftCardCode::parse(typed), Ok(code.clone()), "{typed}");
        }
        assert_eq!(
            GiftCardCode::parse("1111-2222-3333-4444"),
            GiftCardCode::parse("iiLl-2222-3333-4444")
        );
        for wrong in [
            "",
            "04HM-ASW9-NF6Y-Y09",
            "04HM-ASW9-NF6Y-Y0933",
            "04HM-ASW9-NF6Y-YU93",
            "04HM-ASW9-NF6Y-Y0é3",
            "04HM_ASW9_NF6Y_Y093",
        ] {
            assert_eq!(
                GiftCardCode::parse(wrong),
                Err(InvalidGiftCardCode),
                "{wrong}"
            );
        }
    }

    #[test]
    fn every_code_reads_back_as_itself() {
        let source = SequentialGiftCardCodes::starting_at(u64::MAX - 40);
        for _ in 0..40 {
            let code = source.next_code();
            assert_eq!(GiftCardCode::parse(&code.to_string()), Ok(code.clone()));
            assert_eq!(GiftCardCode::parse(code.as_str()), Ok(code));
        }
    }

    #[test]
    fn debug_output_never_holds_the_whole_code() {
        let code = GiftCardCode::parse("04HM-ASW9-NF6Y-Y093").unwrap();
        assert_eq!(format!("{code:?}"), "GiftCardCode(…Y093)");
    }
}
