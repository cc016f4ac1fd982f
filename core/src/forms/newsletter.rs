//! Newsletter subscriptions after the sign-up: the tokens in a subscriber's links, double
//! opt-in confirmation, and the unsubscribe page (page type 300).

use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::outbox::{
    DeliveryKind, NewsletterSubscriptions, Subscriber, SubscriptionTokens, TokenOutcome,
};
use super::submission::SubmissionKey;
use crate::owners::tables::{TablePage, TableQuery};
use crate::ports::RepositoryError;

/// The title and texts of the subscription pages (not in the specification).
pub mod texts {
    pub const CONFIRM_TITLE: &str = "Confirm your subscription";
    pub const CONFIRM_PROMPT: &str = "Confirm that you want to receive this newsletter.";
    pub const CONFIRM_BUTTON: &str = "Confirm subscription";
    pub const CONFIRMED: &str = "Thank you. Your subscription is confirmed.";
    pub const UNSUBSCRIBE_TITLE: &str = "Unsubscribe";
    pub const UNSUBSCRIBE_PROMPT: &str = "Stop receiving this newsletter at";
    pub const UNSUBSCRIBE_BUTTON: &str = "Unsubscribe";
    pub const UNSUBSCRIBED: &str =
        "You have been unsubscribed. You will receive no more mail from this list.";
    pub const INVALID_LINK: &str = "This link is not valid. It may have been copied incompletely.";
}

/// The tokens of a new subscription, derived from its submission key: the key is 256 random
/// bits only the visitor's browser and this server know, so the hashes are as unguessable,
/// and the core needs no randomness of its own. Different prefixes keep the two apart.
pub fn subscription_tokens(key: &SubmissionKey, double_opt_in: bool) -> SubscriptionTokens {
    let derive = |purpose: &str| {
        let mut hasher = Sha256::new();
        hasher.update(purpose.as_bytes());
        hasher.update([0]);
        hasher.update(key.as_str().as_bytes());
        hex::encode(hasher.finalize())
    };
    SubscriptionTokens {
        unsubscribe: derive("unsubscribe"),
        confirm: double_opt_in.then(|| derive("confirm")),
    }
}

/// Text that can be a token: 64 lowercase hex digits. Anything else is refused before the
/// store is asked.
fn plausible(token: &str) -> bool {
    token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The subscription pages' use case.
pub struct NewsletterService {
    subscriptions: Arc<dyn NewsletterSubscriptions>,
    /// Enqueued when a double opt-in subscription is confirmed.
    owner_deliveries: Vec<DeliveryKind>,
}

impl NewsletterService {
    pub fn new(
        subscriptions: Arc<dyn NewsletterSubscriptions>,
        owner_deliveries: Vec<DeliveryKind>,
    ) -> Self {
        Self {
            subscriptions,
            owner_deliveries,
        }
    }

    /// The owner's table of subscribers, ended subscriptions too.
    pub async fn subscriber_page(
        &self,
        query: &TableQuery,
    ) -> Result<TablePage<Subscriber>, RepositoryError> {
        self.subscriptions.subscriber_page(query).await
    }

    /// The subscriber a link belongs to, for the page that asks them to press the button.
    pub async fn subscriber(&self, token: &str) -> Result<Option<Subscriber>, RepositoryError> {
        if !plausible(token) {
            return Ok(None);
        }
        self.subscriptions.subscriber_by_token(token).await
    }

    /// The live subscriptions of an address, for its signed-in site user's account page.
    pub async fn subscriptions_of(&self, email: &str) -> Result<Vec<Subscriber>, RepositoryError> {
        self.subscriptions.subscriptions_of(email).await
    }

    pub async fn confirm(&self, token: &str, now: i64) -> Result<TokenOutcome, RepositoryError> {
        if !plausible(token) {
            return Ok(TokenOutcome::Unknown);
        }
        self.subscriptions
            .confirm(token, &self.owner_deliveries, now)
            .await
    }

    pub async fn unsubscribe(
        &self,
        token: &str,
        now: i64,
    ) -> Result<TokenOutcome, RepositoryError> {
        if !plausible(token) {
            return Ok(TokenOutcome::Unknown);
        }
        self.subscriptions.unsubscribe(token, now).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forms::submission::KEY_BYTES;

    #[test]
    fn tokens_are_distinct_hashes_of_the_key() {
        let key = SubmissionKey::from_random([7; KEY_BYTES]);
        let tokens = subscription_tokens(&key, true);
        let confirm = tokens.confirm.clone().unwrap();
        assert!(plausible(&tokens.unsubscribe) && plausible(&confirm));
        assert_ne!(tokens.unsubscribe, confirm);
        assert_ne!(tokens.unsubscribe, key.as_str());
        assert_eq!(subscription_tokens(&key, false).confirm, None);
        assert_eq!(
            subscription_tokens(&key, false).unsubscribe,
            tokens.unsubscribe
        );
    }
}
