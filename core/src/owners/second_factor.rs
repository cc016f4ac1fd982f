//! Turning an owner's second factor on and off from the owner area. The server makes the
//! secret and keeps it as pending; it becomes the account's second factor only after a correct
//! code from it, so a mistyped or unscanned secret never locks the owner out. Turning it off
//! needs a current code or the password. Every attempt is counted like a sign-in (per account
//! and per client), so the six digits cannot be guessed through these forms either.

use super::model::{Owner, TotpSecret};
use super::service::OwnerService;
use crate::cart::Timestamp;
use crate::forms::RateLimit;
use crate::people::{
    AccountId, LimitHit, MAX_PASSWORD_BYTES, RetryAfter, Unavailable, count_attempt,
};

#[derive(Debug, thiserror::Error)]
pub enum SecondFactorError {
    #[error("Two-step verification is on already.")]
    AlreadyOn,
    #[error("Two-step verification is off already.")]
    AlreadyOff,
    /// The confirmation came without a secret waiting for it (another tab finished first).
    #[error("Start again: no new secret is waiting for its first code.")]
    NothingPending,
    #[error("The code is incorrect or has been used already.")]
    InvalidCode,
    #[error("Enter a current code from your authenticator app, or your password.")]
    InvalidProof,
    #[error("Too many attempts. Please try again later.")]
    RateLimited(RetryAfter),
    /// The account was removed meanwhile.
    #[error("This account no longer exists.")]
    UnknownOwner,
    #[error(transparent)]
    Unavailable(#[from] Unavailable),
}

impl From<LimitHit> for SecondFactorError {
    fn from(hit: LimitHit) -> Self {
        match hit {
            LimitHit::Over(after) => Self::RateLimited(after),
            LimitHit::Unavailable(error) => error.into(),
        }
    }
}

/// How an owner proves they may turn the second factor off.
#[derive(Debug, Clone, Copy)]
pub enum SecondFactorProof<'a> {
    Code(&'a str),
    Password(&'a str),
}

impl OwnerService {
    async fn account(&self, account: &AccountId) -> Result<Owner, SecondFactorError> {
        self.store()
            .owner(account)
            .await
            .map_err(Unavailable::from)?
            .ok_or(SecondFactorError::UnknownOwner)
    }

    async fn save(&self, owner: &Owner) -> Result<(), SecondFactorError> {
        self.store()
            .update_owner(owner)
            .await
            .map_err(|error| match error {
                super::OwnerWriteError::UnknownOwner => SecondFactorError::UnknownOwner,
                other => Unavailable::from(other).into(),
            })
    }

    /// Counts one attempt against the same limits as a sign-in, in buckets of their own, and
    /// reads the account it is for.
    async fn attempt(
        &self,
        account: &AccountId,
        client: &str,
        now: Timestamp,
    ) -> Result<Owner, SecondFactorError> {
        let limiter = &*self.ports.limiter;
        let buckets: [(String, RateLimit); 2] = [
            (
                format!("owner:second-factor:client:{client}"),
                self.limits.sign_ins_per_client,
            ),
            (
                format!("owner:second-factor:account:{}", account.as_str()),
                self.limits.sign_ins_per_account,
            ),
        ];
        for (bucket, limit) in buckets {
            count_attempt(limiter, &bucket, limit, now).await?;
        }
        self.account(account).await
    }

    /// Makes a new secret for the account and keeps it pending (a second start replaces the
    /// first, e.g. after a lost page); the second factor stays as it was until confirmed.
    pub async fn start_second_factor(
        &self,
        account: &AccountId,
    ) -> Result<(Owner, TotpSecret), SecondFactorError> {
        let owner = self.account(account).await?;
        if owner.totp.is_some() {
            return Err(SecondFactorError::AlreadyOn);
        }
        let secret = TotpSecret::from_secret(&self.ports.secrets.secret());
        let owner = Owner {
            totp_pending: Some(secret.clone()),
            ..owner
        };
        self.save(&owner).await?;
        Ok((owner, secret))
    }

    /// Turns the pending secret on when `code` is one of its current codes. The code's step
    /// is kept, so the same code cannot sign in afterwards.
    pub async fn confirm_second_factor(
        &self,
        account: &AccountId,
        code: &str,
        client: &str,
        now: Timestamp,
    ) -> Result<Owner, SecondFactorError> {
        let owner = self.attempt(account, client, now).await?;
        if owner.totp.is_some() {
            return Err(SecondFactorError::AlreadyOn);
        }
        let pending = owner
            .totp_pending
            .clone()
            .ok_or(SecondFactorError::NothingPending)?;
        let step = pending
            .matching_step(code, now.millis() / 1000)
            .ok_or(SecondFactorError::InvalidCode)?;
        let owner = Owner {
            totp: Some(pending),
            totp_last_step: Some(step),
            totp_pending: None,
            ..owner
        };
        self.save(&owner).await?;
        Ok(owner)
    }

    /// Turns the second factor off after a current, unused code or the account's password.
    pub async fn turn_off_second_factor(
        &self,
        account: &AccountId,
        proof: SecondFactorProof<'_>,
        client: &str,
        now: Timestamp,
    ) -> Result<Owner, SecondFactorError> {
        let owner = self.attempt(account, client, now).await?;
        let Some(secret) = &owner.totp else {
            return Err(SecondFactorError::AlreadyOff);
        };
        let proven = match proof {
            SecondFactorProof::Code(code) => secret
                .matching_step(code, now.millis() / 1000)
                .is_some_and(|step| owner.totp_last_step.is_none_or(|last| step > last)),
            SecondFactorProof::Password(password) => match owner.password_hash.clone() {
                Some(hash) if !password.is_empty() && password.len() <= MAX_PASSWORD_BYTES => {
                    self.ports.passwords.verify(password.to_owned(), hash).await
                }
                _ => false,
            },
        };
        if !proven {
            return Err(SecondFactorError::InvalidProof);
        }
        let owner = Owner {
            totp: None,
            totp_last_step: None,
            totp_pending: None,
            ..owner
        };
        self.save(&owner).await?;
        Ok(owner)
    }
}
