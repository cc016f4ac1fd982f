//! Vitrine's core: the site model, the specification's rules and the ports through which the
//! outside world is reached. Nothing here performs I/O; adapters do.

pub mod blog_url;
pub mod bundle;
pub mod catalog;
pub mod enums;
pub mod human;
pub mod links;
pub mod money;
pub mod pages;
pub mod ports;
pub mod query_string;
pub mod site;
