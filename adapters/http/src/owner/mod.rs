//! The owner's calls that shape the published site (001 s7): the header and footer every page
//! shows, and the site's languages. Each is behind the owner token (`shared/owner_throttle.rs`)
//! and, when it changes something, the crumb; a change reaches the published pages at once.

pub(crate) mod header_footer;
pub(crate) mod multilingual;
