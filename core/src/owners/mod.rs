//! The owner area (000 s1, s2, s6; 001 s3): owner and contributor accounts with the roles of
//! 001 s3 mapped to permission codes, sign-in with an optional TOTP second factor, sessions
//! listed and revoked, API keys with scopes for scripts, and how a signed-in owner is treated
//! on the live site. The one port (the owner store) is implemented in memory here and on SQL
//! in the adapters, all passing one conformance suite.

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
mod live_site;
mod memory;
mod model;
mod permissions;
mod second_factor;
mod service;
#[cfg(test)]
mod service_tests;
mod store;
pub mod tables;

pub use live_site::{
    CONFIG_PATH, RESERVATION_PREVIEW_ALERT, RedirectFacts, config_url, is_localhost,
    redirects_to_config, shows_owner_extras,
};
pub use memory::InMemoryOwnerStore;
pub use model::{
    API_KEY_PREFIX, ApiKey, MAX_API_KEY_NAME, OWNER_SESSION_SECONDS, Owner, OwnerSession,
    SETUP_LINK_SECONDS, SetupToken, TotpSecret,
};
pub use permissions::{
    OwnerAccess, role_permissions, role_permits, role_reads_analytics, treated_as_visitor,
};
pub use second_factor::{SecondFactorError, SecondFactorProof};
pub use service::{
    ApiKeyError, IssuedApiKey, ManageOwnerError, OwnerLimits, OwnerPorts, OwnerService,
    OwnerSignInError, OwnerSignedIn, OwnerViewer, SetupError,
};
pub use store::{OwnerStore, OwnerWriteError};

#[cfg(test)]
mod memory_conformance {
    crate::owner_store_conformance!(std::sync::Arc::new(super::InMemoryOwnerStore::new())
        as std::sync::Arc<dyn super::OwnerStore>);
}
