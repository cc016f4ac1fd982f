//! The shared layer below the capabilities: request parts, the layers every request passes
//! (crumb, origin check, rate limits and the tighter ones on checkout, coupon and donation attempts, owner-token throttle, security headers, request logs),
//! the API's error type, entity tags, compressed bodies, the features' route table, the
//! conversion events every capability fires, the signed-in viewer of a request, the paid member
//! areas an order bought, and the answer
//! of a page for one visitor. It
//! imports no capability folder; the capabilities and the router import it.

pub(crate) mod admission;
pub(crate) mod api_error;
pub(crate) mod attempt_limits;
pub(crate) mod bounded_body;
pub(crate) mod census_log;
pub(crate) mod client_address;
pub(crate) mod clock;
pub(crate) mod conversion_events;
pub(crate) mod conversions;
pub(crate) mod cookie_names;
pub mod crumb;
pub(crate) mod encoding;
pub(crate) mod entity_tag;
pub(crate) mod observability;
pub(crate) mod owner_access;
pub(crate) mod owner_throttle;
pub(crate) mod paid_membership;
pub(crate) mod request_limits;
pub(crate) mod request_parts;
pub(crate) mod route_table;
pub(crate) mod same_origin;
pub mod security_headers;
pub(crate) mod viewer;
pub(crate) mod visitor_page;
pub(crate) mod visitors;
