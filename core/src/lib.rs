//! Vitrine's core: the site model, the specification's rules and the ports through which the
//! outside world is reached. Nothing here performs I/O; adapters do.

pub mod analytics;
pub mod blog_url;
pub mod bridge;
pub mod bundle;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod consent;
pub mod conversions;
pub mod enums;
pub mod experiments;
pub mod forms;
pub mod gallery;
pub mod gift_cards;
pub mod header_footer;
pub mod human;
pub mod languages;
pub mod links;
pub mod map_tiles;
pub mod money;
pub mod owners;
pub mod pages;
pub mod people;
pub mod places;
pub mod plugins;
pub mod popup;
pub mod ports;
pub mod query_string;
pub mod reviews;
pub mod search;
pub mod site;
pub mod widgets;
