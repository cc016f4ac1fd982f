//! Delivery and abuse-protection settings of `vitrine serve`: where submissions go (SMTP,
//! webhook), newsletter double opt-in, the captcha provider, and the shopper's order mails
//! (confirmation, review request delay); and the wiring of the delivery worker that drains
//! the outbox in the background.

use std::sync::Arc;

use anyhow::{Context, bail};
use clap::Args;
use vitrine_core::checkout::OrderMails;
use vitrine_core::forms::{
    CaptchaVerifier, DeliveryChannels, DeliveryService, FormService, NewsletterService,
    RetryPolicy, SiteLinks,
};
use vitrine_core::pages::CaptchaSettingsContext;
use vitrine_services::{CaptchaProvider, DeliveryWorker, HttpCaptcha, SignedWebhook, SmtpMailer};

#[derive(Debug, Clone, Args)]
pub struct DeliveryArgs {
    /// Send mail through this SMTP server: `smtp://HOST:PORT` (plain, e.g. a local relay),
    /// `smtp://USER:PASSWORD@HOST:587?tls=required` (STARTTLS) or `smtps://...` (TLS).
    #[arg(
        long,
        env = "VITRINE_SMTP_URL",
        value_name = "URL",
        hide_env_values = true
    )]
    pub smtp_url: Option<String>,

    /// The sender of Vitrine's mails.
    #[arg(
        long,
        env = "VITRINE_MAIL_FROM",
        value_name = "MAILBOX",
        default_value = "Vitrine <vitrine@localhost>"
    )]
    pub mail_from: String,

    /// Mail every form submission to this address (needs --smtp-url).
    #[arg(long, env = "VITRINE_OWNER_EMAIL", value_name = "ADDRESS")]
    pub owner_email: Option<String>,

    /// POST every form submission as signed JSON to this URL (needs --webhook-secret).
    #[arg(long, env = "VITRINE_WEBHOOK_URL", value_name = "URL")]
    pub webhook_url: Option<String>,

    /// The shared secret webhook signatures are made with (HMAC-SHA256).
    #[arg(
        long,
        env = "VITRINE_WEBHOOK_SECRET",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub webhook_secret: Option<String>,

    /// Newsletter sign-ups must be confirmed through a mailed link (needs --smtp-url).
    #[arg(long, env = "VITRINE_NEWSLETTER_DOUBLE_OPT_IN")]
    pub newsletter_double_opt_in: bool,

    /// Require a solved captcha on every form: recaptcha, hcaptcha or turnstile (needs
    /// --captcha-site-key and --captcha-secret).
    #[arg(long, env = "VITRINE_CAPTCHA_PROVIDER", value_name = "PROVIDER")]
    pub captcha_provider: Option<String>,

    /// The provider's public site key, given to the widget in the page context.
    #[arg(long, env = "VITRINE_CAPTCHA_SITE_KEY", value_name = "KEY")]
    pub captcha_site_key: Option<String>,

    /// The provider's secret key, used to verify tokens.
    #[arg(
        long,
        env = "VITRINE_CAPTCHA_SECRET",
        value_name = "SECRET",
        hide_env_values = true
    )]
    pub captcha_secret: Option<String>,

    /// Verify captcha tokens at this URL instead of the provider's (a compatible server).
    #[arg(long, env = "VITRINE_CAPTCHA_VERIFY_URL", value_name = "URL")]
    pub captcha_verify_url: Option<String>,

    /// Mail a shopper the link to review their order's products this many days after the
    /// order (0 to 365), or `off`. Orders mail only with --smtp-url.
    #[arg(
        long,
        env = "VITRINE_REVIEW_REQUEST_DELAY_DAYS",
        value_name = "DAYS",
        default_value = "7",
        value_parser = review_request_delay
    )]
    pub review_request_delay_days: ReviewRequestDelay,
}

/// How many days after an order its review request is mailed; none when switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewRequestDelay(Option<u32>);

fn review_request_delay(text: &str) -> Result<ReviewRequestDelay, String> {
    if text.trim().eq_ignore_ascii_case("off") {
        return Ok(ReviewRequestDelay(None));
    }
    match text.trim().parse::<u32>() {
        Ok(days) if days <= 365 => Ok(ReviewRequestDelay(Some(days))),
        _ => Err("a number of days from 0 to 365, or off".to_owned()),
    }
}

/// The configured channels and protections, ready to hand to the services.
pub struct Delivery {
    channels: DeliveryChannels,
    double_opt_in: bool,
    review_request_delay: ReviewRequestDelay,
    captcha: Option<(Arc<dyn CaptchaVerifier>, CaptchaSettingsContext)>,
}

impl Delivery {
    /// Checks the settings together and builds the adapters; a setting that cannot work is
    /// an error at start rather than a silent loss later.
    pub fn configure(args: &DeliveryArgs) -> anyhow::Result<Self> {
        let mailer = match &args.smtp_url {
            Some(url) => Some(Arc::new(
                SmtpMailer::new(url, &args.mail_from)
                    .context("check --smtp-url and --mail-from")?,
            ) as Arc<dyn vitrine_core::forms::Mailer>),
            None => None,
        };
        if mailer.is_none() && (args.owner_email.is_some() || args.newsletter_double_opt_in) {
            bail!("--owner-email and --newsletter-double-opt-in send mail: set --smtp-url too");
        }
        let webhook = match (&args.webhook_url, &args.webhook_secret) {
            (Some(url), Some(secret)) if !secret.is_empty() => {
                let url = url::Url::parse(url).context("--webhook-url is not a URL")?;
                Some(Arc::new(SignedWebhook::new(url, secret.as_bytes()))
                    as Arc<dyn vitrine_core::forms::WebhookSender>)
            }
            (Some(_), _) => bail!("--webhook-url needs --webhook-secret to sign with"),
            (None, _) => None,
        };
        let captcha = match &args.captcha_provider {
            None => None,
            Some(name) => {
                let provider = CaptchaProvider::parse(name).with_context(|| {
                    format!(
                        "unknown captcha provider {name:?}: use recaptcha, hcaptcha or turnstile"
                    )
                })?;
                let (Some(site_key), Some(secret)) = (&args.captcha_site_key, &args.captcha_secret)
                else {
                    bail!("--captcha-provider needs --captcha-site-key and --captcha-secret");
                };
                let verifier = match &args.captcha_verify_url {
                    Some(url) => HttpCaptcha::with_endpoint(
                        url::Url::parse(url).context("--captcha-verify-url is not a URL")?,
                        secret.clone(),
                    ),
                    None => HttpCaptcha::new(provider, secret.clone()),
                };
                Some((
                    Arc::new(verifier) as Arc<dyn CaptchaVerifier>,
                    CaptchaSettingsContext {
                        provider: provider.name().to_owned(),
                        site_key: site_key.clone(),
                    },
                ))
            }
        };
        Ok(Self {
            channels: DeliveryChannels {
                mailer,
                owner_email: args.owner_email.clone(),
                webhook,
            },
            double_opt_in: args.newsletter_double_opt_in,
            review_request_delay: args.review_request_delay_days,
            captcha,
        })
    }

    /// The mails orders send: the confirmation and the review request, when the server can
    /// send mail at all (the order page promises the confirmation only then).
    pub fn order_mails(&self) -> OrderMails {
        let mails = self.channels.mailer.is_some();
        OrderMails {
            confirmation: mails,
            review_request_delay_seconds: self
                .review_request_delay
                .0
                .filter(|_| mails)
                .map(|days| i64::from(days) * 24 * 60 * 60),
        }
    }

    /// The captcha settings the page context carries.
    pub fn captcha_settings(&self) -> Option<CaptchaSettingsContext> {
        self.captcha.as_ref().map(|(_, settings)| settings.clone())
    }

    /// The form service with deliveries enqueued and the captcha required.
    pub fn apply(&self, forms: FormService) -> FormService {
        let forms = forms.with_deliveries(self.channels.owner_deliveries(), self.double_opt_in);
        match &self.captcha {
            Some((verifier, _)) => forms.with_captcha(verifier.clone()),
            None => forms,
        }
    }

    /// The confirmation and unsubscribe pages' service.
    pub fn newsletter(&self, database: &vitrine_sql::Database) -> NewsletterService {
        NewsletterService::new(
            database.newsletter_subscriptions(),
            self.channels.owner_deliveries(),
        )
    }

    /// Starts the worker that sends what the outbox holds; links in mails start with
    /// `public_url`, and order links are signed with `order_links`.
    pub fn spawn_worker(
        &self,
        database: &vitrine_sql::Database,
        public_url: &str,
        order_links: vitrine_core::checkout::OrderLinkKey,
    ) -> DeliveryWorker {
        let service = Arc::new(DeliveryService::new(
            database.delivery_outbox(),
            self.channels.clone(),
            SiteLinks::new(public_url).with_order_link_key(order_links),
            RetryPolicy::default(),
        ));
        let worker = DeliveryWorker::new();
        tokio::spawn(vitrine_services::run_deliveries(
            service,
            worker.clone(),
            None,
        ));
        worker
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Command {
        #[command(flatten)]
        delivery: DeliveryArgs,
    }

    fn configure(args: &[&str]) -> anyhow::Result<Delivery> {
        let command =
            Command::try_parse_from(std::iter::once("vitrine").chain(args.iter().copied()))?;
        Delivery::configure(&command.delivery)
    }

    fn refusal(args: &[&str]) -> String {
        match configure(args) {
            Ok(_) => panic!("{args:?} was accepted"),
            Err(error) => format!("{error:#}"),
        }
    }

    #[test]
    fn settings_that_cannot_work_stop_the_server_at_start() {
        assert!(refusal(&["--owner-email", "o@example.com"]).contains("set --smtp-url too"));
        assert!(refusal(&["--newsletter-double-opt-in"]).contains("set --smtp-url too"));
        assert!(
            refusal(&["--webhook-url", "https://hooks.example/x"]).contains("--webhook-secret")
        );
        assert!(refusal(&["--captcha-provider", "captchax"]).contains("unknown captcha provider"));
        assert!(
            refusal(&["--captcha-provider", "turnstile", "--captcha-site-key", "k"])
                .contains("--captcha-secret")
        );
        assert!(refusal(&["--smtp-url", "ftp://mail.example"]).contains("--smtp-url"));
    }

    #[tokio::test]
    async fn configured_channels_become_owner_deliveries_and_captcha_settings() {
        let delivery = configure(&[
            "--smtp-url",
            "smtp://127.0.0.1:2525",
            "--owner-email",
            "owner@example.com",
            "--webhook-url",
            "https://hooks.example/vitrine",
            "--webhook-secret",
            "s3cret",
            "--captcha-provider",
            "hcaptcha",
            "--captcha-site-key",
            "site-key",
            "--captcha-secret",
            "secret",
        ])
        .unwrap();
        assert_eq!(
            delivery.channels.owner_deliveries(),
            [
                vitrine_core::forms::DeliveryKind::OwnerEmail,
                vitrine_core::forms::DeliveryKind::Webhook
            ]
        );
        assert_eq!(
            delivery.captcha_settings(),
            Some(CaptchaSettingsContext {
                provider: "hcaptcha".into(),
                site_key: "site-key".into()
            })
        );
        let nothing = configure(&[]).unwrap();
        assert!(nothing.channels.owner_deliveries().is_empty());
        assert_eq!(nothing.captcha_settings(), None);
    }

    #[test]
    fn orders_mail_only_with_smtp_and_ask_for_reviews_after_the_configured_days() {
        let smtp = ["--smtp-url", "smtp://127.0.0.1:2525"];
        assert_eq!(
            configure(&smtp).unwrap().order_mails(),
            OrderMails {
                confirmation: true,
                review_request_delay_seconds: Some(7 * 24 * 60 * 60),
            }
        );
        let soon = configure(&[smtp[0], smtp[1], "--review-request-delay-days", "0"]).unwrap();
        assert_eq!(soon.order_mails().review_request_delay_seconds, Some(0));
        let off = configure(&[smtp[0], smtp[1], "--review-request-delay-days", "off"]).unwrap();
        assert_eq!(
            off.order_mails(),
            OrderMails {
                confirmation: true,
                review_request_delay_seconds: None,
            }
        );
        assert_eq!(configure(&[]).unwrap().order_mails(), OrderMails::default());
        assert!(
            refusal(&["--review-request-delay-days", "400"]).contains("0 to 365, or off"),
            "{}",
            refusal(&["--review-request-delay-days", "400"])
        );
    }
}
