//! The owner service over the in-memory store, limiter and a counting secret source.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use super::*;
use crate::cart::Timestamp;
use crate::enums::{ContributorRole, PermissionCode};
use crate::forms::RateLimit;
use crate::forms::memory::MemoryRateLimiter;
use crate::people::{PasswordCost, PasswordHasher, Secret, SecretSource};

#[derive(Default)]
struct CountingSecrets(AtomicU8);

impl SecretSource for CountingSecrets {
    fn secret(&self) -> Secret {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        let mut bytes = [n; 32];
        bytes[0] = n.wrapping_add(1);
        Secret(bytes)
    }
}

fn service_with(limits: OwnerLimits) -> OwnerService {
    OwnerService::new(
        OwnerPorts {
            store: Arc::new(InMemoryOwnerStore::new()),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(CountingSecrets::default()),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
        },
        limits,
    )
}

fn service() -> OwnerService {
    service_with(OwnerLimits::default())
}

const NOW: Timestamp = Timestamp(1_700_000_000_000);

async fn sign_in(
    service: &OwnerService,
    password: &str,
    code: Option<&str>,
) -> Result<OwnerSignedIn, OwnerSignInError> {
    service
        .sign_in(
            "ada@example.com",
            password,
            code,
            "10.0.0.1",
            "Firefox",
            NOW,
        )
        .await
}

#[tokio::test]
async fn an_account_added_without_a_password_signs_in_only_after_its_setup_link() {
    let service = service();
    let (owner, link) = service
        .add("Ada@Example.com", ContributorRole::Admin, None, NOW)
        .await
        .unwrap();
    assert_eq!(owner.email.as_str(), "ada@example.com");
    let link = link.expect("an account without a password gets a setup link");
    assert!(matches!(
        sign_in(&service, "", None).await,
        Err(OwnerSignInError::InvalidCredentials)
    ));
    assert!(matches!(
        service
            .complete_setup(link.as_str(), "short", "Firefox", NOW)
            .await,
        Err(SetupError::PasswordTooShort)
    ));
    let first = service
        .complete_setup(link.as_str(), "correct horse", "Firefox", NOW)
        .await
        .unwrap();
    assert_eq!(first.owner.id, owner.id);
    assert!(matches!(
        service
            .complete_setup(link.as_str(), "another one", "Firefox", NOW)
            .await,
        Err(SetupError::InvalidOrExpired)
    ));
    let signed_in = sign_in(&service, "correct horse", None).await.unwrap();
    let viewer = service
        .viewer(signed_in.token.as_str(), NOW)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(viewer.owner.role, ContributorRole::Admin);
    assert!(matches!(
        sign_in(&service, "wrong horse", None).await,
        Err(OwnerSignInError::InvalidCredentials)
    ));
}

#[tokio::test]
async fn a_second_factor_is_asked_only_after_the_password_and_each_code_works_once() {
    let service = service();
    ada(&service).await;
    let (_, secret) = service.enable_totp("ada@example.com").await.unwrap();
    assert!(matches!(
        sign_in(&service, "wrong horse", None).await,
        Err(OwnerSignInError::InvalidCredentials)
    ));
    assert!(matches!(
        sign_in(&service, "correct horse", None).await,
        Err(OwnerSignInError::SecondFactorRequired)
    ));
    let code = secret.code_at(NOW.millis() / 1000);
    let wrong = if code == "000000" { "000001" } else { "000000" };
    assert!(matches!(
        sign_in(&service, "correct horse", Some(wrong)).await,
        Err(OwnerSignInError::InvalidSecondFactor)
    ));
    sign_in(&service, "correct horse", Some(&code))
        .await
        .unwrap();
    assert!(matches!(
        sign_in(&service, "correct horse", Some(&code)).await,
        Err(OwnerSignInError::InvalidSecondFactor)
    ));
}

#[tokio::test]
async fn attempts_past_the_account_limit_are_refused_with_a_wait() {
    let service = service_with(OwnerLimits {
        sign_ins_per_account: RateLimit {
            max: 2,
            window_seconds: 900,
        },
        ..OwnerLimits::default()
    });
    ada(&service).await;
    for _ in 0..2 {
        assert!(matches!(
            sign_in(&service, "wrong horse", None).await,
            Err(OwnerSignInError::InvalidCredentials)
        ));
    }
    match sign_in(&service, "correct horse", None).await {
        Err(OwnerSignInError::RateLimited(after)) => assert!(after.0 >= 1),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn a_reset_clears_the_password_and_second_factor_and_ends_every_session() {
    let service = service();
    ada(&service).await;
    let session = sign_in(&service, "correct horse", None).await.unwrap();
    service.enable_totp("ada@example.com").await.unwrap();
    let link = service.reset("ada@example.com", NOW).await.unwrap();
    assert_eq!(
        service.viewer(session.token.as_str(), NOW).await.unwrap(),
        None
    );
    assert!(matches!(
        sign_in(&service, "correct horse", None).await,
        Err(OwnerSignInError::InvalidCredentials)
    ));
    service
        .complete_setup(link.as_str(), "battery staple", "Firefox", NOW)
        .await
        .unwrap();
    sign_in(&service, "battery staple", None).await.unwrap();
    assert!(matches!(
        service.reset("nobody@example.com", NOW).await,
        Err(ManageOwnerError::UnknownOwner)
    ));
}

#[tokio::test]
async fn an_api_key_acts_within_its_scopes_and_its_owners_role_until_revoked() {
    let service = service();
    let (owner, _) = service
        .add(
            "sam@example.com",
            ContributorRole::StoreManager,
            Some("correct horse"),
            NOW,
        )
        .await
        .unwrap();
    assert!(matches!(
        service
            .create_api_key(&owner, "export", &[PermissionCode::Settings], NOW)
            .await,
        Err(ApiKeyError::ScopeNotHeld(PermissionCode::Settings))
    ));
    assert!(matches!(
        service
            .create_api_key(&owner, " ", &[PermissionCode::Commerce], NOW)
            .await,
        Err(ApiKeyError::InvalidName)
    ));
    let issued = service
        .create_api_key(&owner, "orders export", &[PermissionCode::Commerce], NOW)
        .await
        .unwrap();
    assert!(issued.secret.starts_with("vk_"));
    let access = service.key_access(&issued.secret).await.unwrap().unwrap();
    assert!(access.permits(PermissionCode::Commerce));
    assert!(!access.permits(PermissionCode::Config));
    assert_eq!(service.key_access("vk_nonsense").await.unwrap(), None);
    assert!(
        service
            .revoke_api_key(&owner.id, &issued.key.id)
            .await
            .unwrap()
    );
    assert_eq!(service.key_access(&issued.secret).await.unwrap(), None);
}

#[tokio::test]
async fn sessions_are_listed_and_one_can_be_revoked_from_another() {
    let service = service();
    let (owner, _) = service
        .add(
            "ada@example.com",
            ContributorRole::Admin,
            Some("correct horse"),
            NOW,
        )
        .await
        .unwrap();
    let laptop = sign_in(&service, "correct horse", None).await.unwrap();
    let phone = sign_in(&service, "correct horse", None).await.unwrap();
    let listed = service.sessions(&owner.id, NOW).await.unwrap();
    assert_eq!(listed.len(), 2);
    assert!(
        service
            .end_session(&owner.id, &phone.session.id)
            .await
            .unwrap()
    );
    assert_eq!(
        service.viewer(phone.token.as_str(), NOW).await.unwrap(),
        None
    );
    assert!(
        service
            .viewer(laptop.token.as_str(), NOW)
            .await
            .unwrap()
            .is_some()
    );
}

async fn ada(service: &OwnerService) -> Owner {
    service
        .add(
            "ada@example.com",
            ContributorRole::Admin,
            Some("correct horse"),
            NOW,
        )
        .await
        .unwrap()
        .0
}

fn wrong_code(right: &str) -> &'static str {
    if right == "000000" {
        "000001"
    } else {
        "000000"
    }
}

#[tokio::test]
async fn a_second_factor_started_from_the_owner_area_is_on_only_after_a_correct_code() {
    let service = service();
    let owner = ada(&service).await;
    let (pending, secret) = service.start_second_factor(&owner.id).await.unwrap();
    assert_eq!(pending.totp, None);
    assert_eq!(pending.totp_pending, Some(secret.clone()));
    // Not on yet: the password alone still signs in.
    sign_in(&service, "correct horse", None).await.unwrap();
    let code = secret.code_at(NOW.millis() / 1000);
    assert!(matches!(
        service
            .confirm_second_factor(&owner.id, wrong_code(&code), "10.0.0.1", NOW)
            .await,
        Err(SecondFactorError::InvalidCode)
    ));
    let on = service
        .confirm_second_factor(&owner.id, &code, "10.0.0.1", NOW)
        .await
        .unwrap();
    assert_eq!(on.totp, Some(secret.clone()));
    assert_eq!(on.totp_pending, None);
    assert!(matches!(
        sign_in(&service, "correct horse", None).await,
        Err(OwnerSignInError::SecondFactorRequired)
    ));
    // The confirming code was spent; the next step's code signs in.
    assert!(matches!(
        sign_in(&service, "correct horse", Some(&code)).await,
        Err(OwnerSignInError::InvalidSecondFactor)
    ));
    let later = Timestamp(NOW.millis() + 30_000);
    let next = secret.code_at(later.millis() / 1000);
    service
        .sign_in(
            "ada@example.com",
            "correct horse",
            Some(&next),
            "10.0.0.1",
            "Firefox",
            later,
        )
        .await
        .unwrap();
    assert!(matches!(
        service.start_second_factor(&owner.id).await,
        Err(SecondFactorError::AlreadyOn)
    ));
}

#[tokio::test]
async fn a_second_start_replaces_the_pending_secret_and_a_confirmation_needs_one() {
    let service = service();
    let owner = ada(&service).await;
    assert!(matches!(
        service
            .confirm_second_factor(&owner.id, "123456", "10.0.0.1", NOW)
            .await,
        Err(SecondFactorError::NothingPending)
    ));
    let (_, first) = service.start_second_factor(&owner.id).await.unwrap();
    let (_, second) = service.start_second_factor(&owner.id).await.unwrap();
    assert_ne!(first, second);
    let stale = first.code_at(NOW.millis() / 1000);
    if stale != second.code_at(NOW.millis() / 1000) {
        assert!(matches!(
            service
                .confirm_second_factor(&owner.id, &stale, "10.0.0.1", NOW)
                .await,
            Err(SecondFactorError::InvalidCode)
        ));
    }
}

#[tokio::test]
async fn turning_the_second_factor_off_needs_an_unused_code_or_the_password() {
    // Six attempts here: more than the default limit allows in a quarter hour.
    let service = service_with(OwnerLimits {
        sign_ins_per_account: RateLimit {
            max: 10,
            window_seconds: 900,
        },
        ..OwnerLimits::default()
    });
    let owner = ada(&service).await;
    let (_, secret) = service.start_second_factor(&owner.id).await.unwrap();
    let code = secret.code_at(NOW.millis() / 1000);
    service
        .confirm_second_factor(&owner.id, &code, "10.0.0.1", NOW)
        .await
        .unwrap();
    for proof in [
        SecondFactorProof::Code(&code),
        SecondFactorProof::Code(wrong_code(&code)),
        SecondFactorProof::Password("wrong horse"),
        SecondFactorProof::Password(""),
    ] {
        assert!(
            matches!(
                service
                    .turn_off_second_factor(&owner.id, proof, "10.0.0.1", NOW)
                    .await,
                Err(SecondFactorError::InvalidProof)
            ),
            "{proof:?}"
        );
    }
    let off = service
        .turn_off_second_factor(
            &owner.id,
            SecondFactorProof::Password("correct horse"),
            "10.0.0.1",
            NOW,
        )
        .await
        .unwrap();
    assert_eq!(off.totp, None);
    sign_in(&service, "correct horse", None).await.unwrap();
    assert!(matches!(
        service
            .turn_off_second_factor(
                &owner.id,
                SecondFactorProof::Password("correct horse"),
                "10.0.0.1",
                NOW
            )
            .await,
        Err(SecondFactorError::AlreadyOff)
    ));
}

#[tokio::test]
async fn second_factor_attempts_are_limited_like_sign_ins() {
    let service = service_with(OwnerLimits {
        sign_ins_per_account: RateLimit {
            max: 3,
            window_seconds: 900,
        },
        ..OwnerLimits::default()
    });
    let owner = ada(&service).await;
    let (_, secret) = service.start_second_factor(&owner.id).await.unwrap();
    let code = secret.code_at(NOW.millis() / 1000);
    for _ in 0..3 {
        assert!(matches!(
            service
                .confirm_second_factor(&owner.id, wrong_code(&code), "10.0.0.1", NOW)
                .await,
            Err(SecondFactorError::InvalidCode)
        ));
    }
    // Even the right code waits: guessing must not go on past the limit.
    match service
        .confirm_second_factor(&owner.id, &code, "10.0.0.2", NOW)
        .await
    {
        Err(SecondFactorError::RateLimited(after)) => assert!(after.0 >= 1),
        other => panic!("expected a refusal, got {other:?}"),
    }
}
