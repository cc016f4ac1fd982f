//! Router tests: every request goes through `vitrine_http::router` with `tower::ServiceExt::oneshot`,
//! no socket, against the in-memory repository holding the core's fixture site.

mod analytics_report;
mod assets;
mod attempt_limits;
mod captcha;
mod cart;
mod census;
mod consent;
mod conversion_events;
mod conversions;
mod crawlers;
mod crumb;
mod donate_subscribe;
mod failures;
mod forms;
mod gift_cards;
mod headers;
mod health;
mod locked;
mod media;
mod newsletter;
mod openapi;
mod order_mails;
mod origin_check;
mod page_delivery;
mod pages;
mod popup;
mod product_forms;
mod quick_view;
mod render_pool;
mod request_limits;
mod reviews;
mod search;
mod success_url;
mod support;
mod widgets;
