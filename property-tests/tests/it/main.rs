//! Property tests over the core's shared rules, in one integration binary.
//!
//! Where a rule has state (money arithmetic) the tests are model-based: a weighted strategy
//! of operations is applied both to the real type and to a tiny reference model, and the two
//! must agree after every step.

mod analytics;
mod analytics_ranges;
mod analytics_rollups;
mod billing;
mod blog_url;
mod bridge;
mod cart;
mod cart_lines;
mod cart_totals;
mod consent;
mod enums;
mod experiments;
mod forms;
mod gallery;
mod gating;
mod human;
mod links;
mod map;
mod message_format;
mod money_arithmetic;
mod money_format;
mod owners;
mod page_unlock;
mod payment_status;
mod payments;
mod popup;
mod query_string;
mod refunds;
mod subscriptions;
mod widgets;
