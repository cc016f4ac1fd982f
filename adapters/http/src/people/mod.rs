//! People (`core/src/people`): the site-user calls — sign-up with a confirmed address,
//! sign-in and out with the session cookie and XSRF token, password reset, email change,
//! sign out everywhere and account deletion — and the pages that do the same without
//! JavaScript: sign in, sign up, confirm, reset, the account page and the member-access
//! page with its pricing toggle.

pub mod account_address;
mod account_export;
pub mod account_page;
pub mod account_subscriptions;
mod forms;
pub mod member_access;
pub mod pages;
pub mod site_users;
