//! The mails a site user receives, composed when they are enqueued: the address
//! confirmation, the note to an address that already has an account, the password reset and
//! the email change. The specification shows none of these texts; they are plain storefront
//! wording, decided here.

use super::model::EmailAddress;
use crate::forms::{Mail, SiteLinks};

/// The page that confirms a new account's address.
pub const CONFIRM_ACCOUNT_PATH: &str = "/account/confirm";
/// The page that sets a new password from a reset link.
pub const RESET_PASSWORD_PATH: &str = "/account/reset";
/// The page that moves an account to a new address.
pub const CONFIRM_EMAIL_CHANGE_PATH: &str = "/account/email/confirm";
/// The sign-in page.
pub const SIGN_IN_PATH: &str = "/account/sign-in";
/// The sign-up page.
pub const SIGN_UP_PATH: &str = "/account/sign-up";
/// The page that asks for a password reset link.
pub const RESET_REQUEST_PAGE_PATH: &str = "/account/forgot-password";
/// The signed-in site user's account page.
pub const ACCOUNT_PAGE_PATH: &str = "/account";
/// The member-access page (root `#sqs-member-access-page-root`): sign in, sign up and join
/// a member area.
pub const MEMBER_ACCESS_PATH: &str = "/account/member-access";

fn mail(to: &EmailAddress, subject: &str, text: String) -> Mail {
    Mail {
        to: to.as_str().to_owned(),
        subject: subject.to_owned(),
        text,
        html: None,
        list_unsubscribe: None,
    }
}

pub fn confirm_account_mail(to: &EmailAddress, token: &str, links: &SiteLinks) -> Mail {
    mail(
        to,
        "Confirm your email address",
        format!(
            "Welcome! Please confirm your email address to finish creating your account:\n\n\
             {}?token={token}\n\n\
             The link works once, for 7 days. If you did not sign up, ignore this email.\n",
            links.page(CONFIRM_ACCOUNT_PATH)
        ),
    )
}

/// Sent instead of a confirmation when the address already has an account, so that the
/// sign-up form answers the same either way.
pub fn already_registered_mail(to: &EmailAddress, links: &SiteLinks) -> Mail {
    mail(
        to,
        "You already have an account",
        format!(
            "Someone, hopefully you, tried to create an account with this email address, but \
             it already has one.\n\nSign in: {}\nForgot your password? Reset it from the \
             sign-in page.\n\nIf this was not you, ignore this email.\n",
            links.page(SIGN_IN_PATH)
        ),
    )
}

pub fn reset_password_mail(to: &EmailAddress, token: &str, links: &SiteLinks) -> Mail {
    mail(
        to,
        "Reset your password",
        format!(
            "Follow this link to choose a new password:\n\n{}?token={token}\n\n\
             The link works once, for 1 hour. If you did not ask for it, ignore this email: \
             your password stays as it is.\n",
            links.page(RESET_PASSWORD_PATH)
        ),
    )
}

pub fn change_email_mail(to: &EmailAddress, token: &str, links: &SiteLinks) -> Mail {
    mail(
        to,
        "Confirm your new email address",
        format!(
            "Follow this link to use this address for your account from now on:\n\n\
             {}?token={token}\n\nThe link works once, for 24 hours. If you did not ask for \
             it, ignore this email.\n",
            links.page(CONFIRM_EMAIL_CHANGE_PATH)
        ),
    )
}
