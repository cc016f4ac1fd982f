//! Where checkout payments go: Stripe when a secret key is given (`--stripe-secret-key` /
//! `VITRINE_STRIPE_SECRET_KEY`), at `--stripe-api-base` / `VITRINE_STRIPE_API_BASE` (Stripe's
//! own API by default); the built-in test gateway (no money moves) only when asked for with
//! `--test-payments` / `VITRINE_TEST_PAYMENTS`, as `cargo xtask run` does for the demo;
//! otherwise nowhere: checkout says the shop cannot take payments yet, and the server says
//! so loudly when it starts. Stripe's webhooks are taken when a signing secret is given
//! (`--stripe-webhook-secret` / `VITRINE_STRIPE_WEBHOOK_SECRET`, several while rotating).
//! With a publishable key (`--stripe-publishable-key` / `VITRINE_STRIPE_PUBLISHABLE_KEY`) the
//! cart's checkout takes the card in Stripe.js's Payment Element, loaded from `--stripe-js-url`
//! / `VITRINE_STRIPE_JS_URL` (Stripe's own by default), so no card reaches this server.

use std::sync::Arc;

use anyhow::{Context, bail};
use clap::Args;
use vitrine_core::checkout::{CartService, NoPaymentGateway, PaymentGateway, PaymentReports};
use vitrine_services::{
    STRIPE_API_BASE, STRIPE_JS_URL, StripeBrowser, StripeGateway, StripePublishableKey,
    StripeSecretKey, StripeWebhookSecret, StripeWebhooks,
};

#[derive(Clone, Args)]
pub struct PaymentArgs {
    /// Take payments through Stripe with this secret key (sk_test_... for test mode,
    /// sk_live_..., or a restricted rk_ key). Prefer the environment variable: a command line
    /// is visible to other users of the machine. [default: the built-in test gateway, which
    /// moves no money]
    #[arg(
        long,
        env = "VITRINE_STRIPE_SECRET_KEY",
        value_name = "KEY",
        hide_env_values = true
    )]
    pub stripe_secret_key: Option<String>,

    /// Send Stripe calls to this URL instead of Stripe's API (a compatible server, such as a
    /// local one in tests).
    #[arg(
        long,
        env = "VITRINE_STRIPE_API_BASE",
        value_name = "URL",
        default_value = STRIPE_API_BASE
    )]
    pub stripe_api_base: String,

    /// Take orders and donations through the built-in test gateway, which moves no money
    /// (card 4242 4242 4242 4242 pays): for the demo and for trying a shop out. Checkout
    /// then wears a "Test mode" ribbon. Without it and without a Stripe key the shop takes
    /// no payments at all.
    #[arg(long, env = "VITRINE_TEST_PAYMENTS")]
    pub test_payments: bool,

    /// Take Stripe's webhooks at /api/commerce/stripe/webhook, checked with this signing
    /// secret (whsec_..., shown on the webhook endpoint's page at Stripe). Give it more than
    /// once (or comma-separated in the environment variable) while rotating secrets: an
    /// event signed with any of them is taken. [default: the webhook route answers 404]
    #[arg(
        long,
        env = "VITRINE_STRIPE_WEBHOOK_SECRET",
        value_name = "SECRET",
        value_delimiter = ',',
        hide_env_values = true
    )]
    pub stripe_webhook_secret: Vec<String>,

    /// Take the card at checkout in Stripe's own fields (Stripe.js Payment Element, with
    /// 3-D Secure), identified by this publishable key (pk_test_... or pk_live_..., the same
    /// mode as the secret key), so no card reaches this server. Without it the card is sent
    /// from this server to Stripe, which Stripe allows only for accounts with raw card data
    /// APIs, and cards that ask for 3-D Secure are declined.
    #[arg(long, env = "VITRINE_STRIPE_PUBLISHABLE_KEY", value_name = "KEY")]
    pub stripe_publishable_key: Option<String>,

    /// Load Stripe.js from this URL instead of Stripe's (a stand-in for browser tests).
    #[arg(
        long,
        env = "VITRINE_STRIPE_JS_URL",
        value_name = "URL",
        default_value = STRIPE_JS_URL
    )]
    pub stripe_js_url: String,
}

// The key never reaches a log, even when the command line is printed for debugging.
impl std::fmt::Debug for PaymentArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentArgs")
            .field(
                "stripe_secret_key",
                &self.stripe_secret_key.as_ref().map(|_| "(hidden)"),
            )
            .field("stripe_api_base", &self.stripe_api_base)
            .field("test_payments", &self.test_payments)
            .field(
                "stripe_webhook_secret",
                &format!("({} hidden)", self.stripe_webhook_secret.len()),
            )
            .finish()
    }
}

/// What the server says at start when it takes no payments.
pub const NO_PAYMENTS_WARNING: &str = "WARNING: this shop cannot take payments: no Stripe key \
     (--stripe-secret-key / VITRINE_STRIPE_SECRET_KEY) was given, and test payments are off \
     (--test-payments / VITRINE_TEST_PAYMENTS). Checkout tells shoppers so and places no order \
     that needs a payment.";

/// The configured gateway, or none for the built-in test gateway; a key that cannot work
/// stops the server at start rather than failing a shopper's checkout later.
pub fn configure(args: &PaymentArgs) -> anyhow::Result<Option<Arc<dyn PaymentGateway>>> {
    let Some(key) = &args.stripe_secret_key else {
        if args.test_payments {
            tracing::warn!(
                "test payments are on: orders are taken through the built-in test gateway and no money moves"
            );
            return Ok(None);
        }
        tracing::error!("{NO_PAYMENTS_WARNING}");
        eprintln!("{NO_PAYMENTS_WARNING}");
        return Ok(Some(Arc::new(NoPaymentGateway)));
    };
    Ok(Some(Arc::new(stripe(args, key)?)))
}

/// The Stripe gateway of `key` at the configured API base, checked as [`configure`] says.
pub fn stripe(args: &PaymentArgs, key: &str) -> anyhow::Result<StripeGateway> {
    let key = StripeSecretKey::parse(key)
        .context("check --stripe-secret-key / VITRINE_STRIPE_SECRET_KEY")?;
    let base = url::Url::parse(&args.stripe_api_base)
        .with_context(|| format!("{:?} is not a URL", args.stripe_api_base))
        .context("check --stripe-api-base / VITRINE_STRIPE_API_BASE")?;
    match base.scheme() {
        "https" => {}
        // A live key is a password to the shop's money: never in clear text.
        "http" if key.is_test_mode() => {}
        "http" => bail!(
            "a live Stripe key is only sent over https; --stripe-api-base / VITRINE_STRIPE_API_BASE is {base}"
        ),
        other => bail!(
            "--stripe-api-base / VITRINE_STRIPE_API_BASE must be an http or https URL, not {other}:"
        ),
    }
    tracing::info!(
        api = %base,
        mode = if key.is_test_mode() { "test" } else { "live" },
        "payments go to Stripe"
    );
    let gateway = StripeGateway::new(base, key.clone());
    Ok(match browser(args, &key)? {
        Some(browser) => gateway.with_browser(browser),
        None => gateway,
    })
}

/// Stripe.js in the shopper's browser, when a publishable key is given, checked against the
/// secret key's mode and with a script URL a browser may load.
fn browser(args: &PaymentArgs, key: &StripeSecretKey) -> anyhow::Result<Option<StripeBrowser>> {
    let Some(publishable) = &args.stripe_publishable_key else {
        tracing::warn!(
            "no Stripe publishable key (--stripe-publishable-key / VITRINE_STRIPE_PUBLISHABLE_KEY): \
             checkout sends cards from this server, which Stripe allows only with raw card data APIs, \
             and declines cards that ask for 3-D Secure"
        );
        return Ok(None);
    };
    let publishable_key = StripePublishableKey::parse(publishable)
        .context("check --stripe-publishable-key / VITRINE_STRIPE_PUBLISHABLE_KEY")?;
    if publishable_key.is_test_mode() != key.is_test_mode() {
        bail!(
            "the Stripe publishable key and secret key are of different modes (test and live); \
             check --stripe-publishable-key / VITRINE_STRIPE_PUBLISHABLE_KEY"
        );
    }
    let script_url = url::Url::parse(&args.stripe_js_url)
        .with_context(|| format!("{:?} is not a URL", args.stripe_js_url))
        .context("check --stripe-js-url / VITRINE_STRIPE_JS_URL")?;
    match script_url.scheme() {
        "https" => {}
        "http" if key.is_test_mode() => {}
        _ => bail!(
            "--stripe-js-url / VITRINE_STRIPE_JS_URL must be an https URL with a live key: {script_url}"
        ),
    }
    tracing::info!(script = %script_url, "checkout takes cards in Stripe.js's Payment Element");
    Ok(Some(StripeBrowser {
        publishable_key,
        script_url,
    }))
}

/// Where Stripe's webhooks are checked, when signing secrets were given; a value that is not
/// a signing secret stops the server at start.
pub fn webhooks(args: &PaymentArgs) -> anyhow::Result<Option<Arc<dyn PaymentReports>>> {
    if args.stripe_webhook_secret.is_empty() {
        if args.stripe_secret_key.is_some() {
            tracing::warn!(
                "no Stripe webhook signing secret (--stripe-webhook-secret / VITRINE_STRIPE_WEBHOOK_SECRET): \
                 refunds, disputes and payments whose answer was lost are not reconciled"
            );
        }
        return Ok(None);
    }
    let secrets = args
        .stripe_webhook_secret
        .iter()
        .map(|secret| StripeWebhookSecret::parse(secret))
        .collect::<Result<Vec<_>, _>>()
        .context("check --stripe-webhook-secret / VITRINE_STRIPE_WEBHOOK_SECRET")?;
    tracing::info!(secrets = secrets.len(), "Stripe's webhooks are taken");
    Ok(Some(Arc::new(StripeWebhooks::new(secrets))))
}

/// `carts` taking payments through `gateway` when one is configured.
pub fn apply(carts: CartService, gateway: Option<Arc<dyn PaymentGateway>>) -> CartService {
    match gateway {
        Some(gateway) => carts.with_payments(gateway),
        None => carts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(key: Option<&str>, base: &str) -> PaymentArgs {
        PaymentArgs {
            stripe_secret_key: key.map(str::to_owned),
            stripe_api_base: base.to_owned(),
            test_payments: false,
            stripe_webhook_secret: Vec::new(),
            stripe_publishable_key: None,
            stripe_js_url: STRIPE_JS_URL.to_owned(),
        }
    }

    fn refusal(key: &str, base: &str) -> String {
        match configure(&args(Some(key), base)) {
            Ok(_) => panic!("{key} at {base} is refused"),
            Err(error) => format!("{error:#}"),
        }
    }

    #[test]
    fn without_a_key_the_test_gateway_serves_only_when_asked_for() {
        let off = configure(&args(None, STRIPE_API_BASE)).unwrap();
        let gateway = off.expect("a live shop without a key gets no test gateway");
        assert!(!gateway.takes_payments());
        assert!(!gateway.is_test());
        let test = PaymentArgs {
            test_payments: true,
            ..args(None, STRIPE_API_BASE)
        };
        assert!(
            configure(&test).unwrap().is_none(),
            "the built-in test gateway"
        );
    }

    #[test]
    fn a_secret_key_turns_stripe_on_in_its_mode() {
        let test = configure(&args(Some("sk_test_abc"), STRIPE_API_BASE)).unwrap();
        assert!(test.is_some_and(|gateway| gateway.is_test()));
        let live = configure(&args(Some("rk_live_abc"), STRIPE_API_BASE)).unwrap();
        assert!(live.is_some_and(|gateway| !gateway.is_test()));
        assert!(
            configure(&args(Some("sk_test_abc"), "http://127.0.0.1:12111"))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn keys_that_cannot_work_stop_the_server_with_a_clear_message() {
        let publishable = refusal("pk_live_abc", STRIPE_API_BASE);
        assert!(
            publishable.contains("VITRINE_STRIPE_SECRET_KEY")
                && publishable.contains("sk_")
                && publishable.contains("publishable"),
            "{publishable}"
        );
        assert!(!publishable.contains("pk_live_abc"), "{publishable}");
        assert!(refusal("", STRIPE_API_BASE).contains("must start with sk_"));
        assert!(refusal("sk_live_abc", "http://stripe.internal").contains("only sent over https"));
        assert!(refusal("sk_test_abc", "not a url").contains("VITRINE_STRIPE_API_BASE"));
    }

    #[test]
    fn webhook_secrets_turn_the_webhook_on_and_a_wrong_one_stops_the_server() {
        assert!(webhooks(&args(None, STRIPE_API_BASE)).unwrap().is_none());
        let rotating = PaymentArgs {
            stripe_webhook_secret: vec!["whsec_old".into(), "whsec_new".into()],
            ..args(Some("sk_test_abc"), STRIPE_API_BASE)
        };
        assert!(webhooks(&rotating).unwrap().is_some());
        let wrong = PaymentArgs {
            stripe_webhook_secret: vec!["sk_test_oops".into()],
            ..args(Some("sk_test_abc"), STRIPE_API_BASE)
        };
        let refusal = format!("{:#}", webhooks(&wrong).err().expect("refused"));
        assert!(
            refusal.contains("VITRINE_STRIPE_WEBHOOK_SECRET") && refusal.contains("whsec_"),
            "{refusal}"
        );
        assert!(!refusal.contains("oops"), "{refusal}");
    }

    #[test]
    fn the_key_is_hidden_from_debug_output() {
        let shown = format!("{:?}", args(Some("sk_live_topsecret"), STRIPE_API_BASE));
        assert!(!shown.contains("topsecret"), "{shown}");
        assert!(shown.contains("hidden"), "{shown}");
    }
}
