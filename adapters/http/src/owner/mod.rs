//! The owner area (`core/src/owners`): sign-in, the setup link, the first screen of
//! `/config/` with the account's sessions and API keys, and the calls the live site makes for
//! a signed-in owner (the owner's page context, logout). Who may make an owner call is
//! `shared/owner_access.rs`'s to say, since every capability's owner routes ask it.

pub(crate) mod calls;
pub(crate) mod config_page;
mod markup;
