//! Site users (001 s3, s6): accounts with a confirmed address and an argon2id password,
//! signed-in sessions that last the browser session or 30 days with rememberMe, the
//! single-use tokens mailed for confirmation, password reset and email change, and the
//! saved session data with its optional expiry. The two ports (accounts, sessions) are
//! implemented in memory here and on SQL in the adapters, all passing one conformance suite.

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
mod erasure;
mod mails;
mod membership;
mod memory;
mod model;
mod own_records;
mod page_passwords;
mod password;
mod saved_address;
mod service;
#[cfg(test)]
mod service_tests;
mod store;

pub use erasure::{Erased, PersonalRecords};
pub use mails::{
    ACCOUNT_PAGE_PATH, CONFIRM_ACCOUNT_PATH, CONFIRM_EMAIL_CHANGE_PATH, MEMBER_ACCESS_PATH,
    RESET_PASSWORD_PATH, RESET_REQUEST_PAGE_PATH, SIGN_IN_PATH, SIGN_UP_PATH,
};
pub use membership::{JoinError, OrderMembership, open_areas, plans_bought};
pub use memory::InMemoryPeopleStore;
pub use model::{
    Account, AccountId, AccountToken, AddressHold, BROWSER_SESSION_SECONDS, BearerToken,
    EmailAddress, InvalidEmail, MAX_EMAIL_LENGTH, REMEMBER_ME_SECONDS, SavedSessionData, Secret,
    SecretSource, Session, TokenDigest, TokenPurpose,
};
pub use page_passwords::PagePasswordError;
pub use password::{
    MAX_PASSWORD_BYTES, MIN_PASSWORD_LENGTH, PasswordCost, PasswordError, PasswordHasher,
};
pub use service::{
    CHANGE_EMAIL_TOKEN_SECONDS, CONFIRM_TOKEN_SECONDS, MailRequestError, Passwords, PeopleLimits,
    PeoplePorts, PeopleService, RESET_TOKEN_SECONDS, RetryAfter, SignInError, SignUpError,
    SignedIn, TokenError, Unavailable, Viewer,
};
pub(crate) use service::{DecoyHash, LimitHit, check_password, count_attempt, salt_from};
pub use store::{AccountStore, AccountWriteError, PeopleStore, SiteUserSessionStore};

#[cfg(test)]
mod memory_conformance {
    crate::people_store_conformance!(super::InMemoryPeopleStore::new());
}
