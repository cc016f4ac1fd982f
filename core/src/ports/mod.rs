//! Ports: what the core needs from the outside world, as traits. Each has an in-memory
//! implementation beside it so services can be tested without a database; adapters provide
//! the real ones and run the same conformance suite.

mod clock;
mod site_repository;

#[cfg(any(test, feature = "test-support"))]
pub mod conformance;
pub mod memory;

pub use clock::{Clock, FixedClock};
pub use site_repository::{ItemQuery, RepositoryError, SiteRepository};
