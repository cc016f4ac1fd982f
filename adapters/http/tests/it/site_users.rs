//! Router tests of the site-user calls: sign-up with a mailed confirmation, sign-in with its
//! cookie and XSRF token, the XSRF refusal, answers that do not reveal whether an address has
//! an account, attempt limits with Retry-After, password reset, sign out (with and without
//! cloneCart), sign out everywhere and account deletion.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::forms::{DeliveryOutbox, RateLimit, SiteLinks};
use vitrine_core::pages::PageService;
use vitrine_core::people::{
    InMemoryPeopleStore, PasswordCost, PasswordHasher, PeopleLimits, PeoplePorts, PeopleService,
    PersonalRecords,
};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::PermissionType;
use vitrine_http::site_users::OsSecrets;
use vitrine_http::{AppState, HttpConfig};

use crate::support::{
    self, Answer, BASE_URL, config, cookie_value, fixture_assets, repository, send, set_cookie,
};

const CRUMB: &str = "test-crumb";

struct Harness {
    router: Router,
    outbox: Arc<MemoryFormStore>,
}

async fn harness_with(limits: PeopleLimits, config: HttpConfig) -> Harness {
    harness_over(repository().await, limits, config).await
}

async fn harness_over(
    repository: Arc<MemorySiteRepository>,
    limits: PeopleLimits,
    config: HttpConfig,
) -> Harness {
    let pages = Arc::new(PageService::new(repository.clone()));
    let outbox = Arc::new(MemoryFormStore::new());
    let people = Arc::new(PeopleService::new(
        PeoplePorts {
            store: Arc::new(InMemoryPeopleStore::new()),
            outbox: outbox.clone(),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(OsSecrets),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
            records: PersonalRecords {
                orders: Arc::new(vitrine_core::checkout::InMemoryCommerceStore::new()),
                newsletters: outbox.clone(),
                contributions: Arc::new(vitrine_core::checkout::InMemoryContributionStore::new()),
            },
        },
        SiteLinks::new(BASE_URL),
        limits,
    ));
    let state =
        AppState::new(pages, repository, Arc::new(fixture_assets()), config).with_people(people);
    Harness {
        router: vitrine_http::router(state),
        outbox,
    }
}

async fn harness() -> Harness {
    harness_with(PeopleLimits::default(), config()).await
}

/// A call with the crumb, the session cookie when given, and the XSRF token when given.
fn call(
    method: &str,
    path: &str,
    body: Option<serde_json::Value>,
    session: Option<&str>,
    xsrf: Option<&str>,
) -> Request<Body> {
    let separator = if path.contains('?') { '&' } else { '?' };
    // Both crumb cookies, so the same calls work over plain HTTP and TLS.
    let mut cookies = format!(
        "crumb={CRUMB}; __Host-crumb={CRUMB}; vitrine_cart=0123456789abcdef0123456789abcdef"
    );
    if let Some(session) = session {
        cookies.push_str(&format!("; siteuser={session}"));
    }
    let mut request = Request::builder()
        .method(method)
        .uri(format!("{path}{separator}crumb={CRUMB}"))
        .header("cookie", cookies)
        .header("content-type", "application/json");
    if let Some(xsrf) = xsrf {
        request = request.header("x-siteuser-xsrf-token", xsrf);
    }
    request
        .body(body.map_or_else(Body::empty, |body| Body::from(body.to_string())))
        .unwrap()
}

impl Harness {
    async fn send(&self, request: Request<Body>) -> Answer {
        send(&self.router, request).await
    }

    /// The token in the link of the last mail to `to`.
    /// `GET /api/site-users/account` as the browser holding `session`.
    async fn account(&self, session: &str) -> Answer {
        self.send(call(
            "GET",
            "/api/site-users/account",
            None,
            Some(session),
            None,
        ))
        .await
    }

    async fn token_mailed_to(&self, to: &str) -> String {
        let mut token = None;
        for record in self.outbox.deliveries().await.unwrap() {
            let mail = self.outbox.mail_of(record.id).await.unwrap();
            if let Some(mail) = mail.filter(|mail| mail.to == to) {
                let start = mail.text.find("token=").unwrap() + 6;
                token = Some(mail.text[start..start + 64].to_owned());
            }
        }
        token.unwrap_or_else(|| panic!("no mail with a link went to {to}"))
    }

    async fn mail_count(&self) -> usize {
        self.outbox.deliveries().await.unwrap().len()
    }

    async fn sign_up_and_confirm(&self, email: &str, password: &str) {
        let body = serde_json::json!({ "email": email, "password": password });
        let answer = self
            .send(call(
                "POST",
                "/api/site-users/account",
                Some(body),
                None,
                None,
            ))
            .await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text());
        let token = self.token_mailed_to(email).await;
        let confirmed = self
            .send(call(
                "POST",
                "/api/site-users/account/confirm",
                Some(serde_json::json!({ "token": token })),
                None,
                None,
            ))
            .await;
        assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
    }

    /// Signs in; the session cookie's value and the XSRF token.
    async fn sign_in(&self, email: &str, password: &str) -> (String, String) {
        let answer = self.sign_in_answer(email, password, false).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        let cookie = cookie_value(set_cookie(&answer, "siteuser").unwrap());
        (
            cookie,
            answer.json()["xsrfToken"].as_str().unwrap().to_owned(),
        )
    }

    async fn sign_in_answer(&self, email: &str, password: &str, remember_me: bool) -> Answer {
        let body = serde_json::json!({
            "email": email, "password": password, "rememberMe": remember_me
        });
        self.send(call(
            "POST",
            "/api/site-users/account/session",
            Some(body),
            None,
            None,
        ))
        .await
    }
}

#[tokio::test]
async fn a_confirmed_account_signs_in_with_an_http_only_lax_cookie_and_an_xsrf_token() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;

    let browser_session = h
        .sign_in_answer("ada@example.com", "correct horse", false)
        .await;
    assert_eq!(browser_session.status, StatusCode::OK);
    assert_eq!(browser_session.header("cache-control"), "no-store");
    let xsrf = browser_session.json()["xsrfToken"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(xsrf.len(), 32);
    let cookie = set_cookie(&browser_session, "siteuser").unwrap();
    assert!(
        cookie.contains("; Path=/; HttpOnly; SameSite=Lax"),
        "{cookie}"
    );
    assert!(
        !cookie.contains("Max-Age"),
        "a browser-session cookie: {cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");

    let remembered = h
        .sign_in_answer("ada@example.com", "correct horse", true)
        .await;
    let cookie = set_cookie(&remembered, "siteuser").unwrap();
    assert!(cookie.contains("Max-Age=2592000"), "30 days: {cookie}");

    let account = h
        .send(call(
            "GET",
            "/api/site-users/account",
            None,
            Some(&cookie_value(cookie)),
            None,
        ))
        .await;
    assert_eq!(account.status, StatusCode::OK);
    assert_eq!(account.json()["email"], "ada@example.com");
}

#[tokio::test]
async fn over_tls_the_session_cookie_is_host_prefixed_and_secure() {
    let h = harness_with(PeopleLimits::default(), HttpConfig::new(BASE_URL, true)).await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let body = serde_json::json!({ "email": "ada@example.com", "password": "correct horse" });
    let request = Request::post(format!("/api/site-users/account/session?crumb={CRUMB}"))
        .header("cookie", format!("__Host-crumb={CRUMB}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let answer = h.send(request).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let cookie = set_cookie(&answer, "__Host-siteuser").unwrap();
    assert!(
        cookie.ends_with("; Path=/; HttpOnly; SameSite=Lax; Secure"),
        "{cookie}"
    );
}

#[tokio::test]
async fn sign_in_needs_the_crumb_like_every_state_changing_call() {
    let h = harness().await;
    let body = serde_json::json!({ "email": "ada@example.com", "password": "correct horse" });
    let request = Request::post("/api/site-users/account/session")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let answer = h.send(request).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.json()["crumbFail"], true);
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_get_the_same_answer() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let wrong = h
        .sign_in_answer("ada@example.com", "wrong horse", false)
        .await;
    let unknown = h
        .sign_in_answer("nobody@example.com", "correct horse", false)
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        (wrong.status, wrong.text()),
        (unknown.status, unknown.text())
    );
    assert_eq!(wrong.json()["error"], "The email or password is incorrect.");
    assert!(set_cookie(&wrong, "siteuser").is_none());
}

#[tokio::test]
async fn signing_up_or_resetting_answers_the_same_whether_or_not_the_address_has_an_account() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let sign_up = |email: &str| {
        call(
            "POST",
            "/api/site-users/account",
            Some(serde_json::json!({ "email": email, "password": "another horse" })),
            None,
            None,
        )
    };
    let taken = h.send(sign_up("ada@example.com")).await;
    let fresh = h.send(sign_up("bob@example.com")).await;
    assert_eq!(taken.status, StatusCode::ACCEPTED);
    assert_eq!((taken.status, taken.text()), (fresh.status, fresh.text()));

    let reset = |email: &str| {
        call(
            "POST",
            "/api/site-users/account/password-reset",
            Some(serde_json::json!({ "email": email })),
            None,
            None,
        )
    };
    let known = h.send(reset("ada@example.com")).await;
    let unknown = h.send(reset("nobody@example.com")).await;
    assert_eq!(known.status, StatusCode::ACCEPTED);
    assert_eq!(
        (known.status, known.text()),
        (unknown.status, unknown.text())
    );
}

#[tokio::test]
async fn state_changing_calls_without_the_xsrf_token_are_refused() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (session, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
    for xsrf in [None, Some("wrong")] {
        let refused = h
            .send(call(
                "DELETE",
                "/api/site-users/account/session",
                None,
                Some(&session),
                xsrf,
            ))
            .await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{xsrf:?}");
        let deleted = h
            .send(call(
                "DELETE",
                "/api/site-users/account",
                None,
                Some(&session),
                xsrf,
            ))
            .await;
        assert_eq!(deleted.status, StatusCode::FORBIDDEN, "{xsrf:?}");
    }
    // Still signed in: nothing was done.
    let account = h.account(&session).await;
    assert_eq!(account.status, StatusCode::OK);
    let signed_out = h
        .send(call(
            "DELETE",
            "/api/site-users/account/session?cloneCart=true",
            None,
            Some(&session),
            Some(&xsrf),
        ))
        .await;
    assert_eq!(signed_out.status, StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn signing_out_ends_the_session_and_clears_the_cart_unless_it_is_cloned() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    for (clone_cart, cart_cleared) in [(true, false), (false, true)] {
        let (session, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
        let path = format!("/api/site-users/account/session?cloneCart={clone_cart}");
        let answer = h
            .send(call("DELETE", &path, None, Some(&session), Some(&xsrf)))
            .await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT);
        let cleared = set_cookie(&answer, "siteuser").unwrap();
        assert!(cleared.contains("Max-Age=0"), "{cleared}");
        assert_eq!(
            set_cookie(&answer, "vitrine_cart").is_some_and(|cookie| cookie.contains("Max-Age=0")),
            cart_cleared,
            "cloneCart={clone_cart}"
        );
        let account = h.account(&session).await;
        assert_eq!(account.status, StatusCode::UNAUTHORIZED);
    }
}

#[tokio::test]
async fn a_clone_cart_that_is_not_a_boolean_is_a_json_400_and_keeps_the_session() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (session, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
    let answer = h
        .send(call(
            "DELETE",
            "/api/site-users/account/session?cloneCart=null",
            None,
            Some(&session),
            Some(&xsrf),
        ))
        .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_eq!(answer.json()["error"], "cloneCart must be true or false");
    let account = h.account(&session).await;
    assert_eq!(account.status, StatusCode::OK);
}

#[tokio::test]
async fn signing_in_again_rotates_the_session() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (first, _) = h.sign_in("ada@example.com", "correct horse").await;
    let body = serde_json::json!({ "email": "ada@example.com", "password": "correct horse" });
    let again = h
        .send(call(
            "POST",
            "/api/site-users/account/session",
            Some(body),
            Some(&first),
            None,
        ))
        .await;
    let second = cookie_value(set_cookie(&again, "siteuser").unwrap());
    assert_ne!(first, second);
    let old = h.account(&first).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn too_many_sign_in_attempts_answer_429_with_retry_after() {
    let limits = PeopleLimits {
        sign_ins_per_account: RateLimit {
            max: 3,
            window_seconds: 900,
        },
        ..PeopleLimits::default()
    };
    let h = harness_with(limits, config()).await;
    for _ in 0..3 {
        let answer = h.sign_in_answer("ada@example.com", "guess", false).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let limited = h.sign_in_answer("ada@example.com", "guess", false).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    let retry_after: i64 = limited.header("retry-after").parse().unwrap();
    assert!((1..=900).contains(&retry_after), "{retry_after}");
}

#[tokio::test]
async fn a_password_reset_by_mail_sets_a_new_password_and_signs_out_everywhere() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (session, _) = h.sign_in("ada@example.com", "correct horse").await;
    let mails = h.mail_count().await;
    h.send(call(
        "POST",
        "/api/site-users/account/password-reset",
        Some(serde_json::json!({ "email": "ada@example.com" })),
        None,
        None,
    ))
    .await;
    assert_eq!(h.mail_count().await, mails + 1);
    let token = h.token_mailed_to("ada@example.com").await;
    let reset = h
        .send(call(
            "POST",
            "/api/site-users/account/password",
            Some(serde_json::json!({ "token": token, "password": "battery staple" })),
            None,
            None,
        ))
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.text());
    let used = h
        .send(call(
            "POST",
            "/api/site-users/account/password",
            Some(serde_json::json!({ "token": token, "password": "battery staple" })),
            None,
            None,
        ))
        .await;
    assert_eq!(used.status, StatusCode::BAD_REQUEST);
    assert_eq!(used.json()["error"], "This link is invalid or has expired.");
    let old = h.account(&session).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    h.sign_in("ada@example.com", "battery staple").await;
}

#[tokio::test]
async fn signing_out_everywhere_and_deleting_the_account_end_every_session() {
    let h = harness().await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (first, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
    let (second, _) = h.sign_in("ada@example.com", "correct horse").await;
    let everywhere = h
        .send(call(
            "DELETE",
            "/api/site-users/account/sessions",
            None,
            Some(&first),
            Some(&xsrf),
        ))
        .await;
    assert_eq!(everywhere.status, StatusCode::NO_CONTENT);
    for session in [&first, &second] {
        let account = h.account(session).await;
        assert_eq!(account.status, StatusCode::UNAUTHORIZED);
    }

    let (session, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
    let deleted = h
        .send(call(
            "DELETE",
            "/api/site-users/account",
            None,
            Some(&session),
            Some(&xsrf),
        ))
        .await;
    assert_eq!(deleted.status, StatusCode::NO_CONTENT);
    let gone = h
        .sign_in_answer("ada@example.com", "correct horse", false)
        .await;
    assert_eq!(gone.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_malformed_body_is_a_clear_400() {
    let h = harness().await;
    let request = Request::post(format!("/api/site-users/account/session?crumb={CRUMB}"))
        .header("cookie", format!("crumb={CRUMB}"))
        .header("content-type", "application/json")
        .body(Body::from("{\"email\": 3}"))
        .unwrap();
    let answer = h.send(request).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(
        answer.json()["error"]
            .as_str()
            .unwrap()
            .starts_with("The request body is not valid")
    );
}

/// A page request from a browser holding `session` (or none).
fn page(path: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(session) = session {
        request = request.header("cookie", format!("siteuser={session}"));
    }
    request.body(Body::empty()).unwrap()
}

#[tokio::test]
async fn a_members_only_page_opens_to_a_signed_in_member_and_never_reaches_the_shared_cache() {
    let mut site = support::site();
    for collection in &mut site.collections {
        if collection.id.as_str() == "journal" {
            collection.permission_type = PermissionType::MembersOnly;
        }
    }
    site.settings.member_areas = crate::members::members_site().settings.member_areas;
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let h = harness_over(repository, PeopleLimits::default(), config()).await;
    h.sign_up_and_confirm("ada@example.com", "correct horse")
        .await;
    let (session, xsrf) = h.sign_in("ada@example.com", "correct horse").await;
    let joined = h
        .send(crate::members::form_post(
            "/account/member-access/join",
            &[("area", "readers"), ("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER);

    for path in ["/journal", "/journal/first", "/media/a.png"] {
        let member = h.send(page(path, Some(&session))).await;
        assert_eq!(member.status, StatusCode::OK, "{path}");
        assert!(
            member.header("cache-control").starts_with("private"),
            "{path}: {}",
            member.header("cache-control")
        );
        // The member's view is not served to the next anonymous visitor, nor to a browser
        // whose session is made up.
        for other in [None, Some("f".repeat(64))] {
            let anonymous = h.send(page(path, other.as_deref())).await;
            assert_eq!(anonymous.status, StatusCode::FORBIDDEN, "{path} {other:?}");
            let html = anonymous.text();
            assert!(
                html.contains("This page available only site members"),
                "{html}"
            );
            assert!(!html.contains("Post first"), "{path} leaked: {html}");
        }
    }
    let html = h.send(page("/journal/first", Some(&session))).await.text();
    assert!(html.contains("Post first"), "{html}");
}
