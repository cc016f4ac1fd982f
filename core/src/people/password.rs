//! Password hashing with argon2id. Production uses OWASP's parameters (19 MiB, two passes,
//! one lane); tests may configure cheaper ones, which every stored hash records, so a hash
//! made with one set still verifies under another.

use argon2::password_hash::{PasswordHasher as _, PasswordVerifier as _};
use argon2::{Algorithm, Argon2, Params, Version};

/// The fewest characters a new password may have (OWASP: at least 8).
pub const MIN_PASSWORD_LENGTH: usize = 8;
/// The most bytes hashed: longer input is refused rather than spending time on it.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// argon2id's cost: memory in KiB, passes, lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PasswordCost {
    pub memory_kib: u32,
    pub passes: u32,
    pub lanes: u32,
}

impl PasswordCost {
    /// OWASP's recommendation for argon2id: m=19456 (19 MiB), t=2, p=1.
    pub const OWASP: Self = Self {
        memory_kib: 19 * 1024,
        passes: 2,
        lanes: 1,
    };

    /// The cheapest argon2 allows, for tests only: hashing there takes microseconds.
    pub const TESTS_ONLY: Self = Self {
        memory_kib: 8,
        passes: 1,
        lanes: 1,
    };
}

/// Why a password could not be hashed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    #[error("the password hashing parameters are invalid: {0}")]
    Parameters(String),
    #[error("hashing failed: {0}")]
    Hashing(String),
}

/// Hashes and verifies passwords with argon2id at one cost.
#[derive(Debug, Clone)]
pub struct PasswordHasher {
    argon2: Argon2<'static>,
}

impl PasswordHasher {
    pub fn new(cost: PasswordCost) -> Result<Self, PasswordError> {
        let params = Params::new(cost.memory_kib, cost.passes, cost.lanes, None)
            .map_err(|error| PasswordError::Parameters(error.to_string()))?;
        Ok(Self {
            argon2: Argon2::new(Algorithm::Argon2id, Version::V0x13, params),
        })
    }

    /// The PHC string (`$argon2id$v=19$m=...`) of `password` with a 16-byte `salt` the
    /// caller supplies.
    pub fn hash(&self, password: &str, salt: &[u8; 16]) -> Result<String, PasswordError> {
        self.argon2
            .hash_password_with_salt(password.as_bytes(), salt)
            .map(|hash| hash.to_string())
            .map_err(|error| PasswordError::Hashing(error.to_string()))
    }

    /// Whether `password` matches `stored`; an unreadable stored hash matches nothing.
    pub fn verify(&self, password: &str, stored: &str) -> bool {
        self.argon2
            .verify_password(password.as_bytes(), stored)
            .is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let hasher = PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap();
        let hash = hasher.hash("correct horse", &[3; 16]).unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=8,t=1,p=1$"), "{hash}");
        assert!(hasher.verify("correct horse", &hash));
        assert!(!hasher.verify("correct horsE", &hash));
        assert!(!hasher.verify("correct horse", "not a hash"));
    }

    #[test]
    fn a_hash_records_its_cost_so_it_verifies_under_another() {
        let cheap = PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap();
        let other = PasswordHasher::new(PasswordCost {
            memory_kib: 16,
            passes: 2,
            lanes: 1,
        })
        .unwrap();
        let hash = cheap.hash("correct horse", &[5; 16]).unwrap();
        assert!(other.verify("correct horse", &hash));
    }

    #[test]
    fn the_production_cost_is_owasps() {
        let owasp = PasswordHasher::new(PasswordCost::OWASP).unwrap();
        let hash = owasp.hash("pw", &[1; 16]).unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
    }
}
