//! Card-testing defence: a script that tries stolen card numbers one after another (or
//! guesses gift-card codes) pays with a real shop's checkout to learn which cards work. Each
//! payment that fails (a card declined, a gift-card code that pays nothing) is counted per
//! visitor, per cart and per client address through the rate limiter port, which is shared
//! by every server when it lives in Redis; once any of the three has failed too often, the
//! next attempt is refused before the payment gateway is asked at all. Successful payments
//! count nothing, so a shopper whose first card was declined pays with the second.

use std::sync::Arc;

use crate::cart::Timestamp;
use crate::forms::memory::MemoryRateLimiter;
use crate::forms::{RateDecision, RateLimit, RateLimiter};
use crate::ports::RepositoryError;

/// What a shopper or donor reads when their attempts are refused (our text; the
/// specification shows none).
pub const TOO_MANY_FAILED_PAYMENTS: &str =
    "Too many payments failed. Please wait an hour before trying again.";

/// Who is paying, as far as the request tells: each part that is known is counted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Payer {
    /// The visitor's own token (the crumb cookie), which a script can renew at will: the
    /// cart and the address catch it when it does.
    pub visitor: Option<String>,
    /// The cart paid for (a donation has none).
    pub cart: Option<String>,
    /// The client's network address (or its /64 for IPv6), as the request limits key it.
    pub address: Option<String>,
}

/// Which of a payer's counts was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayerPart {
    Visitor,
    Cart,
    Address,
}

impl PayerPart {
    /// How the owner's report and the rate limiter's buckets name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Visitor => "visitor",
            Self::Cart => "cart",
            Self::Address => "address",
        }
    }
}

/// An attempt refused before the gateway was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("too many failed payments by this {}", .part.as_str())]
pub struct PaymentAttemptRefused {
    pub part: PayerPart,
    /// The limiter's answer, for `Retry-After`.
    pub decision: RateDecision,
}

/// How many failed payments each part of a payer may make in a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FailedPaymentLimits {
    pub per_visitor: RateLimit,
    pub per_cart: RateLimit,
    pub per_address: RateLimit,
}

impl Default for FailedPaymentLimits {
    /// Five failures an hour per visitor and per cart, twenty per address: a shopper
    /// mistypes a card or has one declined a few times at most, while a card-testing script
    /// needs hundreds. The address allows more for the many shoppers behind one office or
    /// carrier address.
    fn default() -> Self {
        let per_hour = |max| RateLimit {
            max,
            window_seconds: 60 * 60,
        };
        Self {
            per_visitor: per_hour(5),
            per_cart: per_hour(5),
            per_address: per_hour(20),
        }
    }
}

/// Counts failed payments and refuses attempts past the limits.
#[derive(Clone)]
pub struct CardTestingGuard {
    limiter: Arc<dyn RateLimiter>,
    limits: FailedPaymentLimits,
}

impl Default for CardTestingGuard {
    /// Counting in this process's memory, right for a single server.
    fn default() -> Self {
        Self::new(
            Arc::new(MemoryRateLimiter::new()),
            FailedPaymentLimits::default(),
        )
    }
}

impl CardTestingGuard {
    pub fn new(limiter: Arc<dyn RateLimiter>, limits: FailedPaymentLimits) -> Self {
        Self { limiter, limits }
    }

    fn buckets<'a>(
        &self,
        payer: &'a Payer,
    ) -> impl Iterator<Item = (PayerPart, String, RateLimit)> + 'a {
        let limits = self.limits;
        // The address first: a script that renews its cookies keeps its address.
        [
            (PayerPart::Address, &payer.address, limits.per_address),
            (PayerPart::Visitor, &payer.visitor, limits.per_visitor),
            (PayerPart::Cart, &payer.cart, limits.per_cart),
        ]
        .into_iter()
        .filter_map(|(part, key, limit)| {
            let key = key.as_deref().filter(|key| !key.is_empty())?;
            Some((
                part,
                format!("payment-failed:{}:{key}", part.as_str()),
                limit,
            ))
        })
    }

    /// Refuses an attempt by a payer one of whose parts has failed too often already.
    pub async fn admit(&self, payer: &Payer, now: Timestamp) -> Result<(), AdmitError> {
        let seconds = now.millis().div_euclid(1000);
        for (part, bucket, limit) in self.buckets(payer) {
            let decision = self.limiter.peek(&bucket, limit, seconds).await?;
            if !decision.allowed {
                return Err(AdmitError::Refused(PaymentAttemptRefused {
                    part,
                    decision,
                }));
            }
        }
        Ok(())
    }

    /// Counts a card the provider declined in its own fields against the shopper whose
    /// request told of it (`payer`'s visitor and address: the provider's report of the same
    /// decline counts a cart, so the cart is left out here), then says whether `payer` may
    /// try another card.
    pub async fn count_decline(&self, payer: &Payer, now: Timestamp) -> Result<(), AdmitError> {
        let shopper = Payer {
            cart: None,
            ..payer.clone()
        };
        self.record_failure(&shopper, now).await;
        self.admit(payer, now).await
    }

    /// Counts a failed payment against every known part of the payer.
    pub async fn record_failure(&self, payer: &Payer, now: Timestamp) {
        let seconds = now.millis().div_euclid(1000);
        for (part, bucket, limit) in self.buckets(payer) {
            if let Err(error) = self.limiter.hit(&bucket, limit, seconds).await {
                // The failure stays uncounted; the shopper's answer must not wait for it.
                tracing::warn!(part = part.as_str(), %error, "a failed payment could not be counted");
            }
        }
    }
}

/// Why an attempt was not admitted.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    #[error(transparent)]
    Refused(PaymentAttemptRefused),
    #[error(transparent)]
    Repository(#[from] RepositoryError),
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp(1_795_269_600_000);

    fn payer(visitor: &str, cart: &str, address: &str) -> Payer {
        let some = |text: &str| (!text.is_empty()).then(|| text.to_owned());
        Payer {
            visitor: some(visitor),
            cart: some(cart),
            address: some(address),
        }
    }

    fn refused_part(result: Result<(), AdmitError>) -> Option<PayerPart> {
        match result {
            Ok(()) => None,
            Err(AdmitError::Refused(refused)) => Some(refused.part),
            Err(error) => panic!("{error}"),
        }
    }

    #[tokio::test]
    async fn five_failures_by_one_visitor_refuse_the_sixth_attempt_for_an_hour() {
        let guard = CardTestingGuard::default();
        let script = payer("crumb-1", "cart-1", "");
        for _ in 0..5 {
            assert_eq!(refused_part(guard.admit(&script, NOW).await), None);
            guard.record_failure(&script, NOW).await;
        }
        assert_eq!(
            refused_part(guard.admit(&script, NOW).await),
            Some(PayerPart::Visitor)
        );
        let new_cookies = payer("crumb-2", "cart-1", "");
        assert_eq!(
            refused_part(guard.admit(&new_cookies, NOW).await),
            Some(PayerPart::Cart),
            "a script renewing its crumb is still caught by its cart"
        );
        let an_hour_later = Timestamp(NOW.millis() + 60 * 60 * 1000);
        assert_eq!(
            refused_part(guard.admit(&script, an_hour_later).await),
            None
        );
    }

    #[tokio::test]
    async fn the_address_catches_a_script_that_renews_visitor_and_cart() {
        let guard = CardTestingGuard::default();
        for attempt in 0..20 {
            let fresh = payer(
                &format!("crumb-{attempt}"),
                &format!("cart-{attempt}"),
                "192.0.2.7",
            );
            assert_eq!(refused_part(guard.admit(&fresh, NOW).await), None);
            guard.record_failure(&fresh, NOW).await;
        }
        let next = payer("crumb-new", "cart-new", "192.0.2.7");
        assert_eq!(
            refused_part(guard.admit(&next, NOW).await),
            Some(PayerPart::Address)
        );
        let elsewhere = payer("crumb-new", "cart-new", "198.51.100.1");
        assert_eq!(refused_part(guard.admit(&elsewhere, NOW).await), None);
    }

    #[tokio::test]
    async fn admitting_counts_nothing_and_an_unknown_payer_is_never_refused() {
        let guard = CardTestingGuard::default();
        let shopper = payer("crumb-1", "cart-1", "192.0.2.7");
        for _ in 0..50 {
            guard.admit(&shopper, NOW).await.unwrap();
        }
        let nobody = Payer::default();
        for _ in 0..50 {
            guard.record_failure(&nobody, NOW).await;
        }
        guard.admit(&nobody, NOW).await.unwrap();
    }
}
