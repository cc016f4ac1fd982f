//! People (`core/src/people`): the site-user calls — sign-up with a confirmed address,
//! sign-in and out with the session cookie and XSRF token, password reset, email change,
//! sign out everywhere and account deletion.

pub mod site_users;
