//! The owner area (`core/src/owners`): sign-in, the setup link, the first screen of
//! `/config/` with the account's sessions and API keys, and the calls the live site makes for
//! a signed-in owner (the owner's page context, logout). Who may make an owner call is
//! `shared/owner_access.rs`'s to say, since every capability's owner routes ask it.
//!
//! The dashboard (`dashboard.rs`) shows the analytics of a range the owner picks, on
//! `/config/` under the preview of the site and on a page of its own.
//!
//! Beside them, the owner's calls that shape the published site (001 s7): the header and
//! footer every page shows, and the site's languages; when one changes something it needs the
//! crumb as well, and the change reaches the published pages at once.

pub(crate) mod calls;
pub(crate) mod config_page;
pub(crate) mod dashboard;
mod dashboard_figures;
mod dashboard_markup;
pub(crate) mod header_footer;
mod markup;
pub(crate) mod multilingual;
mod second_factor;
pub(crate) mod tables;
