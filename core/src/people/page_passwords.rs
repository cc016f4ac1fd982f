//! Entering a page password (page type 103): rate limited as signing in is, per client
//! address across the site and per client for each collection, so nobody can guess a page's
//! password by trying many, and nobody can lock everyone else out of a page by trying.

use super::password::MAX_PASSWORD_BYTES;
use super::service::{LimitHit, PeopleService, RetryAfter, Unavailable};
use crate::cart::Timestamp;
use crate::pages::unlock::WRONG_PAGE_PASSWORD;
use crate::site::PagePassword;

/// Why a page password did not open its page.
#[derive(Debug, thiserror::Error)]
pub enum PagePasswordError {
    #[error("{WRONG_PAGE_PASSWORD}")]
    Wrong,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(RetryAfter),
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

impl From<LimitHit> for PagePasswordError {
    fn from(hit: LimitHit) -> Self {
        match hit {
            LimitHit::Over(after) => Self::RateLimited(after),
            LimitHit::Unavailable(error) => error.into(),
        }
    }
}

impl PeopleService {
    /// Whether `typed` is the password of `password`'s collection, for `client` (its address
    /// bucket) at `now`. Each attempt counts, right or wrong, before the hash is verified.
    pub async fn enter_page_password(
        &self,
        password: &PagePassword,
        typed: &str,
        client: &str,
        now: Timestamp,
    ) -> Result<(), PagePasswordError> {
        self.limit(
            format!("people:page-password:client:{client}"),
            self.limits.sign_ins_per_client,
            now,
        )
        .await?;
        self.limit(
            format!(
                "people:page-password:collection:{}:{client}",
                password.collection
            ),
            self.limits.sign_ins_per_account,
            now,
        )
        .await?;
        if typed.is_empty() || typed.len() > MAX_PASSWORD_BYTES {
            return Err(PagePasswordError::Wrong);
        }
        if self
            .passwords
            .verify(typed.to_owned(), password.hash.clone())
            .await
        {
            Ok(())
        } else {
            Err(PagePasswordError::Wrong)
        }
    }
}
