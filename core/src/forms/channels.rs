//! The ports deliveries go out through, a mailer and a webhook sender, and the messages the
//! core composes for them: the owner's copy of a submission and the double opt-in mail (the
//! shopper's order mails are in `checkout::mails`).

use std::collections::BTreeMap;

use async_trait::async_trait;

use super::export::value_text;
use super::outbox::Subscriber;
use super::submission::StoredSubmission;
use super::values::FieldValue;
use crate::cart::Timestamp;
use crate::checkout::{ORDER_LINK_PARAMETER, ORDERS_PATH, OrderLinkKey};
use crate::reviews::REVIEW_REQUEST_PATH;

/// Why a send failed. A temporary failure is retried with backoff; a permanent one (the
/// receiver refused the message itself) is not.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    #[error("temporary failure: {0}")]
    Temporary(String),
    #[error("permanent failure: {0}")]
    Permanent(String),
}

/// A mail with a plain-text part and an HTML part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    /// The HTML part, when the mail composes its own ([`super::mail_html::MailHtml`]);
    /// without it the text is sent as HTML too ([`Mail::html_part`]).
    pub html: Option<String>,
    /// For mails to subscribers: the unsubscribe page, sent as `List-Unsubscribe`.
    pub list_unsubscribe: Option<String>,
}

impl Mail {
    /// A mail to `to` whose HTML part is composed beside its text, titled with the subject.
    pub fn composed(
        to: impl Into<String>,
        subject: impl Into<String>,
        text: String,
        html: super::mail_html::MailHtml,
    ) -> Self {
        let subject = subject.into();
        Self {
            to: to.into(),
            html: Some(html.finish(&subject)),
            subject,
            text,
            list_unsubscribe: None,
        }
    }

    /// The HTML part as sent: the mail's own, or its text as escaped HTML paragraphs.
    pub fn html_part(&self) -> String {
        match &self.html {
            Some(html) => html.clone(),
            None => super::mail_html::text_as_html(&self.subject, &self.text),
        }
    }
}

/// Sends mail (SMTP in production).
#[async_trait]
pub trait Mailer: Send + Sync {
    async fn send(&self, mail: &Mail) -> Result<(), SendError>;
}

/// A submission as the owner's webhook receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmissionNotice {
    /// The outbox entry: the same for every retry, so a receiver can drop duplicates.
    pub delivery_id: i64,
    pub submission: StoredSubmission,
    /// Field id to value, as stored.
    pub values: BTreeMap<String, FieldValue>,
    /// For a newsletter subscriber: the address and their unsubscribe page.
    pub subscriber_email: Option<String>,
    pub unsubscribe_url: Option<String>,
}

/// Posts notices to the owner's webhook (signed HTTP in production).
#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// `now` (Unix seconds) is the signature's timestamp.
    async fn send(&self, notice: &SubmissionNotice, now: i64) -> Result<(), SendError>;
}

/// The site's absolute links in mails: confirmation and unsubscribe pages, order pages and
/// review requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteLinks {
    /// The public URL without a trailing slash.
    base: String,
    /// The key order links are signed with; without it an order link opens the page only
    /// in the browser that bought the order.
    order_links: Option<OrderLinkKey>,
}

/// The path of the page that confirms a double opt-in subscription.
pub const CONFIRM_PATH: &str = "/newsletter/confirm";
/// The path of the unsubscribe page (page type 300).
pub const UNSUBSCRIBE_PATH: &str = "/newsletter/unsubscribe";

impl SiteLinks {
    pub fn new(public_url: &str) -> Self {
        Self {
            base: public_url.trim_end_matches('/').to_owned(),
            order_links: None,
        }
    }

    /// Signs order links with `key`, so that they open the order's page anywhere until they
    /// expire.
    pub fn with_order_link_key(mut self, key: OrderLinkKey) -> Self {
        self.order_links = Some(key);
        self
    }

    /// The absolute address of a path of this site (`path` starts with `/`).
    pub fn page(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn confirm(&self, token: &str) -> String {
        format!("{}{CONFIRM_PATH}?token={token}", self.base)
    }

    pub fn unsubscribe(&self, token: &str) -> String {
        format!("{}{UNSUBSCRIBE_PATH}?token={token}", self.base)
    }

    /// An order's status page (page type 211), signed at `now` when there is a key.
    pub fn order(&self, order_id: &str, now: Timestamp) -> String {
        let page = format!("{}{ORDERS_PATH}/{order_id}", self.base);
        match &self.order_links {
            Some(key) => format!("{page}?{ORDER_LINK_PARAMETER}={}", key.sign(order_id, now)),
            None => page,
        }
    }

    /// The page that reviews the products of a review request (page type 209).
    pub fn review_request(&self, token: &str) -> String {
        format!("{}{REVIEW_REQUEST_PATH}?token={token}", self.base)
    }
}

/// The stored values, or none when they cannot be read (never written by this server).
pub fn stored_values(submission: &StoredSubmission) -> BTreeMap<String, FieldValue> {
    serde_json::from_str(&submission.values_json).unwrap_or_default()
}

/// The owner's copy of a submission: one "field: value" line per field, empty values as N/A.
pub fn owner_mail(
    to: &str,
    submission: &StoredSubmission,
    links: &SiteLinks,
    subscriber: Option<&Subscriber>,
) -> Mail {
    let mut text = format!("A visitor sent the form \"{}\".\n\n", submission.form_id);
    for (field, value) in stored_values(submission) {
        let shown = value_text(&value);
        let shown = if shown.trim().is_empty() {
            "N/A".to_owned()
        } else {
            shown
        };
        text.push_str(&format!("{field}: {shown}\n"));
    }
    if let Some(subscriber) = subscriber {
        text.push_str(&format!(
            "\nThe subscriber can leave the list at {}\n",
            links.unsubscribe(&subscriber.unsubscribe_token)
        ));
    }
    text.push_str(&format!(
        "\nSubmission {} of {}.\n",
        submission.id, links.base
    ));
    Mail {
        to: to.to_owned(),
        subject: format!("New submission to {}", submission.form_id),
        text,
        html: None,
        list_unsubscribe: None,
    }
}

/// The double opt-in mail: the confirmation link, and the unsubscribe link for someone who
/// never asked to be on the list.
pub fn confirmation_mail(subscriber: &Subscriber, links: &SiteLinks) -> Option<Mail> {
    let confirm = links.confirm(subscriber.confirm_token.as_deref()?);
    let unsubscribe = links.unsubscribe(&subscriber.unsubscribe_token);
    Some(Mail {
        to: subscriber.email.clone(),
        subject: "Please confirm your subscription".to_owned(),
        text: format!(
            "Someone, hopefully you, signed up to this newsletter with this address.\n\n\
             To confirm your subscription, open this link:\n{confirm}\n\n\
             If you did not sign up, ignore this mail, or remove the address at:\n\
             {unsubscribe}\n"
        ),
        html: None,
        list_unsubscribe: Some(unsubscribe),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> StoredSubmission {
        StoredSubmission {
            id: 7,
            form_id: "contact".into(),
            collection_id: None,
            object_name: String::new(),
            is_overlay_form: false,
            values_json: r#"{"message":"Hello","name":["Ada",""],"phone":""}"#.into(),
            spam: false,
            created_at: 0,
        }
    }

    #[test]
    fn the_owner_mail_lists_every_field_with_na_for_empty_values() {
        let mail = owner_mail(
            "owner@example.com",
            &stored(),
            &SiteLinks::new("https://shop.example/"),
            None,
        );
        assert_eq!(mail.subject, "New submission to contact");
        expect_test::expect![[r#"
            A visitor sent the form "contact".

            message: Hello
            name: Ada; 
            phone: N/A

            Submission 7 of https://shop.example.
        "#]]
        .assert_eq(&mail.text);
    }

    #[test]
    fn the_confirmation_mail_carries_both_links() {
        let subscriber = Subscriber {
            submission_id: 7,
            list: "news".into(),
            email: "a@example.com".into(),
            unsubscribe_token: "u1".into(),
            confirm_token: Some("c1".into()),
            confirmed: false,
            unsubscribed: false,
        };
        let mail = confirmation_mail(&subscriber, &SiteLinks::new("https://shop.example")).unwrap();
        assert!(
            mail.text
                .contains("https://shop.example/newsletter/confirm?token=c1")
        );
        assert_eq!(
            mail.list_unsubscribe.as_deref(),
            Some("https://shop.example/newsletter/unsubscribe?token=u1")
        );
        let confirmed = Subscriber {
            confirm_token: None,
            ..subscriber
        };
        assert_eq!(confirmation_mail(&confirmed, &SiteLinks::new("x")), None);
    }
}
