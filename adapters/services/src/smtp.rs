//! The mailer on SMTP, through lettre: `smtp://` (plain, for a local relay or a test sink),
//! `smtp://...?tls=required` (STARTTLS) or `smtps://` (TLS from the start), with optional
//! credentials in the URL.

use async_trait::async_trait;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use vitrine_core::forms::{Mail, Mailer, SendError};

/// Sends mail through one SMTP server.
pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// The SMTP configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SmtpConfigError {
    #[error("the SMTP URL is not valid: {0}")]
    Url(String),
    #[error("the sender address {0:?} is not a valid mailbox")]
    From(String),
}

impl SmtpMailer {
    /// A mailer for the server at `url`, sending as `from` (`Name <address>` or an address).
    pub fn new(url: &str, from: &str) -> Result<Self, SmtpConfigError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|error| SmtpConfigError::Url(error.to_string()))?
            // Well under the outbox lease, so a hanging server cannot outlive the claim.
            .timeout(Some(std::time::Duration::from_secs(30)))
            .build();
        let from = from
            .parse()
            .map_err(|_| SmtpConfigError::From(from.to_owned()))?;
        Ok(Self { transport, from })
    }

    fn message(&self, mail: &Mail) -> Result<Message, SendError> {
        // A recipient that is not a mailbox will never become one: no point retrying.
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|_| SendError::Permanent(format!("{:?} is not a mail address", mail.to)))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.as_str());
        if let Some(url) = &mail.list_unsubscribe {
            // RFC 2369 and RFC 8058: mail clients offer their own unsubscribe button, which
            // POSTs to the same page the link opens.
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_owned(),
                ));
        }
        // multipart/alternative: a client shows the HTML part when it can and the text
        // part otherwise, so both say the same.
        builder
            .multipart(MultiPart::alternative_plain_html(
                mail.text.clone(),
                mail.html_part(),
            ))
            .map_err(|error| SendError::Permanent(error.to_string()))
    }
}

#[async_trait]
impl Mailer for SmtpMailer {
    async fn send(&self, mail: &Mail) -> Result<(), SendError> {
        let message = self.message(mail)?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            // A 5xx answer refuses this message for good (no such mailbox, policy); anything
            // else (4xx, a connection that failed, a timeout) may pass later.
            Err(error) if error.is_permanent() => Err(SendError::Permanent(error.to_string())),
            Err(error) => Err(SendError::Temporary(error.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_configuration_is_refused_at_start() {
        assert!(matches!(
            SmtpMailer::new("ftp://mail.example", "a@example.com"),
            Err(SmtpConfigError::Url(_))
        ));
        assert!(matches!(
            SmtpMailer::new("smtp://127.0.0.1:2525", "not an address"),
            Err(SmtpConfigError::From(_))
        ));
    }
}
