//! Router tests of two-step verification from the owner area: the secret shown as a QR code
//! and as text, turned on only by a correct code, off only with a current code or the
//! password, every form CSRF-checked and every attempt counted like a sign-in.

use axum::http::StatusCode;
use vitrine_core::enums::ContributorRole;
use vitrine_core::owners::Owner;

use crate::owner::{
    Harness, PASSWORD, Session, form_post, harness, harness_with_sign_ins, now_seconds, owner_page,
    sign_in_body,
};

async fn ada(harness: &Harness) -> Owner {
    harness
        .owners
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|owner| owner.email.as_str() == "ada@example.com")
        .unwrap()
}

fn wrong(code: &str) -> &'static str {
    if code == "123456" { "654321" } else { "123456" }
}

async fn config_page(harness: &Harness, session: &Session) -> String {
    let answer = harness.send(owner_page("/config/", &session.cookie)).await;
    assert_eq!(answer.status, StatusCode::OK);
    answer.text()
}

/// The key the page shows as text.
fn shown_key(page: &str) -> &str {
    let start = page.find("owner-totp-secret\">").expect("the key is shown") + 19;
    let end = start + page[start..].find("</code>").unwrap();
    &page[start..end]
}

#[tokio::test]
async fn an_owner_turns_two_step_verification_on_with_a_code_from_the_shown_secret() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    assert!(
        config_page(&harness, &session)
            .await
            .contains("Turn on two-step verification")
    );
    let started = harness
        .post_form(&session, "/config/second-factor", &[])
        .await;
    assert_eq!(started.status, StatusCode::SEE_OTHER, "{}", started.text());
    let page = config_page(&harness, &session).await;
    let pending = ada(&harness).await.totp_pending.expect("a pending secret");
    assert_eq!(shown_key(&page), pending.base32());
    assert!(page.contains("src=\"data:image/svg+xml;base64,"), "{page}");
    assert_eq!(ada(&harness).await.totp, None);

    let code = pending.code_at(now_seconds());
    let refused = harness
        .post_form(
            &session,
            "/config/second-factor/confirm",
            &[("code", wrong(&code))],
        )
        .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused
            .text()
            .contains("The code is incorrect or has been used already.")
    );
    assert_eq!(ada(&harness).await.totp, None);
    let confirmed = harness
        .post_form(
            &session,
            "/config/second-factor/confirm",
            &[("code", &code)],
        )
        .await;
    assert_eq!(
        confirmed.status,
        StatusCode::SEE_OTHER,
        "{}",
        confirmed.text()
    );
    assert_eq!(ada(&harness).await.totp, Some(pending));

    let password_only = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, ""),
            None,
        ))
        .await;
    assert_eq!(password_only.status, StatusCode::UNAUTHORIZED);
    assert!(
        password_only
            .text()
            .contains("Enter the six-digit code from your authenticator app.")
    );
}

#[tokio::test]
async fn second_factor_forms_without_the_sessions_csrf_token_change_nothing() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Editor)
        .await;
    for path in [
        "/config/second-factor",
        "/config/second-factor/confirm",
        "/config/second-factor/off",
    ] {
        let answer = harness
            .send(form_post(
                path,
                "csrf=not-the-token&code=123456",
                Some(&session.cookie),
            ))
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}");
    }
    let signed_out = harness
        .send(form_post("/config/second-factor", "", None))
        .await;
    assert_eq!(signed_out.status, StatusCode::SEE_OTHER);
    assert_eq!(signed_out.header("location"), "/config/");
    assert_eq!(ada(&harness).await.totp_pending, None);
}

#[tokio::test]
async fn turning_it_off_needs_a_current_code_or_the_password() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let owner = ada(&harness).await;
    let (_, secret) = harness.owners.start_second_factor(&owner.id).await.unwrap();
    let code = secret.code_at(now_seconds());
    harness
        .owners
        .confirm_second_factor(
            &owner.id,
            &code,
            "test",
            vitrine_core::cart::Timestamp(now_seconds() * 1000),
        )
        .await
        .unwrap();
    for proof in [
        vec![("code", wrong(&code))],
        vec![("code", ""), ("password", "wrong horse")],
        vec![("code", ""), ("password", "")],
    ] {
        let answer = harness
            .post_form(&session, "/config/second-factor/off", &proof)
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{proof:?}");
        assert!(
            answer
                .text()
                .contains("Enter a current code from your authenticator app, or your password.")
        );
    }
    assert!(ada(&harness).await.totp.is_some());
    let off = harness
        .post_form(
            &session,
            "/config/second-factor/off",
            &[("code", ""), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(off.status, StatusCode::SEE_OTHER, "{}", off.text());
    assert_eq!(ada(&harness).await.totp, None);
}

#[tokio::test]
async fn guessing_codes_past_the_sign_in_limit_answers_429_with_retry_after() {
    let harness = harness_with_sign_ins(4).await;
    // Signing in spends one attempt of the sign-in bucket, none of the second factor's.
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let started = harness
        .post_form(&session, "/config/second-factor", &[])
        .await;
    assert_eq!(started.status, StatusCode::SEE_OTHER);
    let pending = ada(&harness).await.totp_pending.unwrap();
    let code = pending.code_at(now_seconds());
    for _ in 0..4 {
        let answer = harness
            .post_form(
                &session,
                "/config/second-factor/confirm",
                &[("code", wrong(&code))],
            )
            .await;
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let limited = harness
        .post_form(
            &session,
            "/config/second-factor/confirm",
            &[("code", &code)],
        )
        .await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(limited.header("retry-after").parse::<i64>().unwrap() >= 1);
    assert!(
        limited
            .text()
            .contains("Too many attempts. Please try again later.")
    );
    assert_eq!(ada(&harness).await.totp, None);
}
