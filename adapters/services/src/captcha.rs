//! The captcha verifier on the providers' verify APIs. reCAPTCHA, hCaptcha and Turnstile
//! speak the same protocol: a form-encoded POST of `secret` and `response` (and optionally
//! `remoteip`), answered with JSON whose `success` says whether the token was solved.
//!
//! Decision: `remoteip` is not sent. It is optional for all three, and the server has no
//! client address it can trust (it may sit behind any proxy).

use async_trait::async_trait;
use serde::Deserialize;
use vitrine_core::forms::{CaptchaError, CaptchaVerifier};

/// A captcha service and its verify endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptchaProvider {
    ReCaptcha,
    HCaptcha,
    Turnstile,
}

impl CaptchaProvider {
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "recaptcha" => Some(Self::ReCaptcha),
            "hcaptcha" => Some(Self::HCaptcha),
            "turnstile" => Some(Self::Turnstile),
            _ => None,
        }
    }

    /// The name the page context and the form template use.
    pub fn name(self) -> &'static str {
        match self {
            Self::ReCaptcha => "recaptcha",
            Self::HCaptcha => "hcaptcha",
            Self::Turnstile => "turnstile",
        }
    }

    /// The provider's public verify endpoint.
    pub fn verify_url(self) -> &'static str {
        match self {
            Self::ReCaptcha => "https://www.google.com/recaptcha/api/siteverify",
            Self::HCaptcha => "https://api.hcaptcha.com/siteverify",
            Self::Turnstile => "https://challenges.cloudflare.com/turnstile/v0/siteverify",
        }
    }
}

/// The part of the answer that matters; `error-codes` and the rest are left out.
#[derive(Debug, Deserialize)]
struct VerifyAnswer {
    success: bool,
}

/// Verifies tokens with one provider.
pub struct HttpCaptcha {
    client: reqwest::Client,
    endpoint: url::Url,
    secret: String,
}

impl HttpCaptcha {
    /// A verifier that asks `provider`'s public endpoint.
    pub fn new(provider: CaptchaProvider, secret: impl Into<String>) -> Self {
        let endpoint = url::Url::parse(provider.verify_url()).expect("the endpoints are URLs");
        Self::with_endpoint(endpoint, secret)
    }

    /// A verifier that asks `endpoint` (a provider-compatible server, or a test's).
    pub fn with_endpoint(endpoint: url::Url, secret: impl Into<String>) -> Self {
        Self {
            client: crate::http_client::client(),
            endpoint,
            secret: secret.into(),
        }
    }
}

#[async_trait]
impl CaptchaVerifier for HttpCaptcha {
    async fn verify(&self, token: &str) -> Result<bool, CaptchaError> {
        let form = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("secret", &self.secret)
            .append_pair("response", token)
            .finish();
        let unavailable = |error: String| CaptchaError::Unavailable(error);
        let response = self
            .client
            .post(self.endpoint.clone())
            .header("Content-Type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        if !response.status().is_success() {
            return Err(unavailable(format!(
                "the provider answered {}",
                response.status()
            )));
        }
        let body = response
            .bytes()
            .await
            .map_err(|error| unavailable(error.to_string()))?;
        let answer: VerifyAnswer = serde_json::from_slice(&body)
            .map_err(|error| unavailable(format!("unreadable answer: {error}")))?;
        Ok(answer.success)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn providers_are_named_as_configured() {
        for provider in [
            CaptchaProvider::ReCaptcha,
            CaptchaProvider::HCaptcha,
            CaptchaProvider::Turnstile,
        ] {
            assert_eq!(CaptchaProvider::parse(provider.name()), Some(provider));
            assert!(provider.verify_url().starts_with("https://"));
        }
        assert_eq!(
            CaptchaProvider::parse("Turnstile"),
            Some(CaptchaProvider::Turnstile)
        );
        assert_eq!(CaptchaProvider::parse("captchaX"), None);
    }
}
