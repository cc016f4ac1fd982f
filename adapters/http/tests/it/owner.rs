//! Router tests of the owner area: sign-in at `/config/` with its cookie, the attempt limits
//! (429 with Retry-After), the TOTP second factor, the CSRF token on every owner form and
//! call, the setup link, sessions and API keys, logout, what each role may do, the
//! environment's owner token as an admin key, and the redirect rules of 000 s2 with their
//! exceptions.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::enums::ContributorRole;
use vitrine_core::forms::RateLimit;
use vitrine_core::forms::memory::MemoryRateLimiter;
use vitrine_core::owners::{
    InMemoryOwnerStore, OwnerLimits, OwnerPorts, OwnerService, RESERVATION_PREVIEW_ALERT,
    role_permits, role_reads_analytics,
};
use vitrine_core::pages::PageService;
use vitrine_core::people::{PasswordCost, PasswordHasher};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_http::site_users::OsSecrets;
use vitrine_http::{AppState, HttpConfig};

use crate::support::{self, Answer, config, cookie_value, fixture_assets, send, set_cookie};

const CRUMB: &str = "test-crumb";
pub(crate) const PASSWORD: &str = "correct horse";
const ENV_TOKEN: &str = "an-owner-token-of-at-least-32-bytes!";

pub(crate) struct Harness {
    router: Router,
    pub(crate) owners: Arc<OwnerService>,
}

fn owner_service(limits: OwnerLimits) -> Arc<OwnerService> {
    Arc::new(OwnerService::new(
        OwnerPorts {
            store: Arc::new(InMemoryOwnerStore::new()),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(OsSecrets),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
        },
        limits,
    ))
}

pub(crate) async fn harness_over(
    repository: Arc<MemorySiteRepository>,
    limits: OwnerLimits,
    config: HttpConfig,
) -> Harness {
    let owners = owner_service(limits);
    Harness {
        router: vitrine_http::router(owner_state(repository, owners.clone(), config)),
        owners,
    }
}

/// The server's state with `owners` and the environment's owner token.
fn owner_state(
    repository: Arc<MemorySiteRepository>,
    owners: Arc<OwnerService>,
    config: HttpConfig,
) -> AppState {
    let pages = Arc::new(PageService::new(repository.clone()));
    AppState::new(pages, repository, Arc::new(fixture_assets()), config)
        .with_owners(owners)
        .with_consent_receipts(
            Arc::new(vitrine_core::consent::MemoryConsentReceiptStore::new()),
            Some(ENV_TOKEN.to_owned()),
        )
}

pub(crate) async fn harness() -> Harness {
    harness_over(
        support::repository().await,
        OwnerLimits::default(),
        config(),
    )
    .await
}

/// The harness with `max` sign-in attempts per account in fifteen minutes.
pub(crate) async fn harness_with_sign_ins(max: u32) -> Harness {
    let limits = OwnerLimits {
        sign_ins_per_account: RateLimit {
            max,
            window_seconds: 900,
        },
        ..OwnerLimits::default()
    };
    harness_over(support::repository().await, limits, config()).await
}

pub(crate) fn now_seconds() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn now() -> vitrine_core::cart::Timestamp {
    vitrine_core::cart::Timestamp(now_seconds() * 1000)
}

/// A form post from a page of this site, with the owner's cookie when given.
pub(crate) fn form_post(path: &str, body: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::builder()
        .method("POST")
        .uri(path)
        .header("sec-fetch-site", "same-origin")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("user-agent", "Test Browser");
    if let Some(session) = session {
        request = request.header("cookie", format!("owner={session}"));
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

/// A page of the owner area, asked for by the browser of the session whose cookie is `session`.
pub(crate) fn owner_page(path: &str, session: &str) -> Request<Body> {
    Request::get(path)
        .header("cookie", format!("owner={session}"))
        .body(Body::empty())
        .unwrap()
}

/// A call with the crumb and, when given, the owner's cookie, CSRF token or bearer secret.
fn call(
    method: &str,
    path: &str,
    session: Option<&str>,
    csrf: Option<&str>,
    bearer: Option<&str>,
) -> Request<Body> {
    let separator = if path.contains('?') { '&' } else { '?' };
    let mut cookies = format!("crumb={CRUMB}");
    if let Some(session) = session {
        cookies.push_str(&format!("; owner={session}"));
    }
    let mut request = Request::builder()
        .method(method)
        .uri(format!("{path}{separator}crumb={CRUMB}"))
        .header("host", "shop.example")
        .header("cookie", cookies);
    if let Some(csrf) = csrf {
        request = request.header("x-owner-csrf-token", csrf);
    }
    if let Some(bearer) = bearer {
        request = request.header("authorization", format!("Bearer {bearer}"));
    }
    request.body(Body::empty()).unwrap()
}

pub(crate) fn sign_in_body(email: &str, password: &str, code: &str) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .append_pair("email", email)
        .append_pair("password", password)
        .append_pair("code", code)
        .append_pair("frameUrl", "/shop?page=2")
        .finish()
}

/// A signed-in session of a new account with `role`: its cookie value and CSRF token.
pub(crate) struct Session {
    pub(crate) cookie: String,
    pub(crate) csrf: String,
}

impl Harness {
    pub(crate) async fn send(&self, request: Request<Body>) -> Answer {
        send(&self.router, request).await
    }

    async fn add(&self, email: &str, role: ContributorRole) {
        self.owners
            .add(email, role, Some(PASSWORD), now())
            .await
            .unwrap();
    }

    async fn sign_in(&self, email: &str) -> Session {
        let answer = self
            .send(form_post(
                "/config/sign-in",
                &sign_in_body(email, PASSWORD, ""),
                None,
            ))
            .await;
        assert_eq!(answer.status, StatusCode::SEE_OTHER, "{}", answer.text());
        let cookie = cookie_value(set_cookie(&answer, "owner").expect("a session cookie"));
        let context = self
            .send(call("GET", "/api/owner/context", Some(&cookie), None, None))
            .await;
        let json: serde_json::Value = serde_json::from_slice(&context.body).unwrap();
        Session {
            cookie,
            csrf: json["csrfToken"].as_str().unwrap().to_owned(),
        }
    }

    /// A form of the owner area posted by `session`'s browser with its CSRF token and `pairs`.
    pub(crate) async fn post_form(
        &self,
        session: &Session,
        path: &str,
        pairs: &[(&str, &str)],
    ) -> Answer {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        body.append_pair("csrf", &session.csrf);
        for (name, value) in pairs {
            body.append_pair(name, value);
        }
        self.send(form_post(path, &body.finish(), Some(&session.cookie)))
            .await
    }

    pub(crate) async fn signed_in_as(&self, email: &str, role: ContributorRole) -> Session {
        self.add(email, role).await;
        self.sign_in(email).await
    }

    async fn context(&self, session: &Session, query: &str, host: &str) -> serde_json::Value {
        let mut request = call(
            "GET",
            &format!("/api/owner/context?{query}"),
            Some(&session.cookie),
            None,
            None,
        );
        request.headers_mut().insert("host", host.parse().unwrap());
        let answer = self.send(request).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
        assert_eq!(answer.header("cache-control"), "no-store");
        serde_json::from_slice(&answer.body).unwrap()
    }
}

#[tokio::test]
async fn config_shows_the_sign_in_form_and_a_right_password_starts_a_strict_session() {
    let harness = harness().await;
    let page = harness
        .send(Request::get("/config/").body(Body::empty()).unwrap())
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("cache-control"), "no-store");
    assert!(
        page.text()
            .contains("<form method=\"post\" action=\"/config/sign-in\">")
    );
    harness.add("ada@example.com", ContributorRole::Admin).await;

    let wrong = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", "wrong horse", ""),
            None,
        ))
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.text().contains("The email or password is incorrect."));
    assert!(set_cookie(&wrong, "owner").is_none());

    let right = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("Ada@Example.com", PASSWORD, ""),
            None,
        ))
        .await;
    assert_eq!(right.status, StatusCode::SEE_OTHER);
    assert_eq!(
        right.header("location"),
        "/config/?frameUrl=%2Fshop%3Fpage%3D2"
    );
    let cookie = set_cookie(&right, "owner").unwrap();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Strict"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let hint = set_cookie(&right, "vitrine-owner").unwrap();
    assert!(
        !hint.contains("HttpOnly"),
        "the page's script reads it: {hint}"
    );

    let session = cookie_value(cookie);
    let first = harness
        .send(owner_page("/config/?frameUrl=%2Fshop", &session))
        .await;
    assert_eq!(first.status, StatusCode::OK);
    let text = first.text();
    assert!(
        text.contains("Signed in as ada@example.com (admin)"),
        "{text}"
    );
    assert!(
        text.contains(
            "<iframe class=\"owner-preview\" title=\"Preview of your site\" src=\"/shop\""
        )
    );
    assert!(
        text.contains("Test Browser"),
        "the session list names the browser"
    );
    assert!(
        first
            .header("content-security-policy")
            .contains("frame-src 'self'"),
        "the preview frame is allowed on this page"
    );
}

#[tokio::test]
async fn over_tls_the_session_cookie_is_secure_with_the_host_prefix() {
    let harness = harness_over(
        support::repository().await,
        OwnerLimits::default(),
        HttpConfig::new(support::BASE_URL, true),
    )
    .await;
    harness.add("ada@example.com", ContributorRole::Admin).await;
    let answer = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, ""),
            None,
        ))
        .await;
    let cookie = set_cookie(&answer, "__Host-owner").expect("the __Host- cookie");
    assert!(
        cookie.contains("Secure") && cookie.contains("Path=/"),
        "{cookie}"
    );
}

#[tokio::test]
async fn a_cross_site_sign_in_post_is_refused() {
    let harness = harness().await;
    harness.add("ada@example.com", ContributorRole::Admin).await;
    let mut request = form_post(
        "/config/sign-in",
        &sign_in_body("ada@example.com", PASSWORD, ""),
        None,
    );
    request
        .headers_mut()
        .insert("sec-fetch-site", "cross-site".parse().unwrap());
    assert_eq!(harness.send(request).await.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn sign_in_attempts_past_the_limit_answer_429_with_retry_after() {
    let harness = harness_with_sign_ins(2).await;
    harness.add("ada@example.com", ContributorRole::Admin).await;
    for _ in 0..2 {
        let answer = harness
            .send(form_post(
                "/config/sign-in",
                &sign_in_body("ada@example.com", "wrong horse", ""),
                None,
            ))
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    let limited = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, ""),
            None,
        ))
        .await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(limited.header("retry-after").parse::<i64>().unwrap() >= 1);
    assert!(
        limited
            .text()
            .contains("Too many sign-in attempts. Please try again later.")
    );
}

#[tokio::test]
async fn an_account_with_a_second_factor_needs_its_current_code() {
    let harness = harness().await;
    harness.add("ada@example.com", ContributorRole::Admin).await;
    let (_, secret) = harness.owners.enable_totp("ada@example.com").await.unwrap();
    let without = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, ""),
            None,
        ))
        .await;
    assert_eq!(without.status, StatusCode::UNAUTHORIZED);
    assert!(
        without
            .text()
            .contains("Enter the six-digit code from your authenticator app.")
    );
    let code = secret.code_at(now_seconds());
    let wrong = if code == "123456" { "654321" } else { "123456" };
    let refused = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, wrong),
            None,
        ))
        .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let accepted = harness
        .send(form_post(
            "/config/sign-in",
            &sign_in_body("ada@example.com", PASSWORD, &code),
            None,
        ))
        .await;
    assert_eq!(
        accepted.status,
        StatusCode::SEE_OTHER,
        "{}",
        accepted.text()
    );
}

#[tokio::test]
async fn a_setup_link_sets_the_password_once_and_signs_in() {
    let harness = harness().await;
    let (_, link) = harness
        .owners
        .add(
            "sam@example.com",
            ContributorRole::StoreManager,
            None,
            now(),
        )
        .await
        .unwrap();
    let token = link.unwrap();
    let page = harness
        .send(
            Request::get(format!("/config/setup?token={}", token.as_str()))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("For sam@example.com."));
    let body = format!("token={}&password=battery+staple", token.as_str());
    let done = harness.send(form_post("/config/setup", &body, None)).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER);
    assert!(set_cookie(&done, "owner").is_some());
    let again = harness.send(form_post("/config/setup", &body, None)).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn owner_forms_without_the_session_csrf_token_are_refused() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    for (path, body) in [
        ("/config/api-keys", "name=export&scope=1".to_owned()),
        ("/config/sessions/revoke", "id=whatever".to_owned()),
        ("/config/sign-out", String::new()),
        (
            "/config/api-keys",
            "name=export&scope=1&csrf=wrong".to_owned(),
        ),
    ] {
        let answer = harness
            .send(form_post(path, &body, Some(&session.cookie)))
            .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path} {body}");
    }
    // The session still works: nothing was done.
    let context = harness.context(&session, "path=/", "shop.example").await;
    assert_eq!(context["websiteRoles"]["admin"], 1);
}

#[tokio::test]
async fn an_api_key_acts_within_its_scopes_and_stops_when_revoked() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let created = harness
        .post_form(
            &session,
            "/config/api-keys",
            &[("name", "report"), ("scope", "1")],
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text());
    let text = created.text();
    let start = text.find("vk_").unwrap();
    let key = &text[start..start + 67];
    let report = harness
        .send(call("GET", "/api/analytics/report", None, None, Some(key)))
        .await;
    assert_eq!(report.status, StatusCode::OK);
    let receipts = harness
        .send(call("GET", "/api/consent/receipts", None, None, Some(key)))
        .await;
    assert_eq!(
        receipts.status,
        StatusCode::NOT_FOUND,
        "the key lacks the settings scope"
    );

    let owner = harness
        .owners
        .list()
        .await
        .unwrap()
        .into_iter()
        .next()
        .unwrap();
    let id = harness.owners.api_keys(&owner.id).await.unwrap()[0]
        .id
        .clone();
    let revoked = harness
        .post_form(&session, "/config/api-keys/revoke", &[("id", &id)])
        .await;
    assert_eq!(revoked.status, StatusCode::SEE_OTHER);
    let after = harness
        .send(call("GET", "/api/analytics/report", None, None, Some(key)))
        .await;
    assert_eq!(after.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_environment_owner_token_still_acts_as_an_admin_key() {
    let harness = harness().await;
    for path in ["/api/analytics/report", "/api/consent/receipts"] {
        let answer = harness
            .send(call("GET", path, None, None, Some(ENV_TOKEN)))
            .await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn each_role_reads_only_what_its_permission_codes_allow() {
    use vitrine_core::enums::PermissionCode;
    let harness = harness().await;
    for (n, role) in ContributorRole::ALL.iter().enumerate() {
        let session = harness
            .signed_in_as(&format!("person{n}@example.com"), *role)
            .await;
        // Analytics is for the roles that read figures; the rest by their permission code.
        for (path, allowed) in [
            ("/api/analytics/report", role_reads_analytics(*role)),
            (
                "/api/consent/receipts",
                role_permits(*role, PermissionCode::Settings),
            ),
        ] {
            let answer = harness
                .send(call("GET", path, Some(&session.cookie), None, None))
                .await;
            let expected = if allowed {
                StatusCode::OK
            } else {
                StatusCode::NOT_FOUND
            };
            assert_eq!(answer.status, expected, "{role} on {path}");
        }
        let config = harness.send(owner_page("/config/", &session.cookie)).await;
        let expected = if role_permits(*role, PermissionCode::Config) {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(config.status, expected, "{role} at /config/");
    }
}

#[tokio::test]
async fn logout_is_a_no_op_without_an_account_and_needs_the_csrf_token_with_one() {
    let harness = harness().await;
    let anonymous = harness
        .send(call("POST", "/api/auth/Logout", None, None, None))
        .await;
    assert_eq!(anonymous.status, StatusCode::NO_CONTENT);
    assert!(set_cookie(&anonymous, "owner").is_none());

    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let forged = harness
        .send(call(
            "POST",
            "/api/auth/Logout",
            Some(&session.cookie),
            None,
            None,
        ))
        .await;
    assert_eq!(forged.status, StatusCode::FORBIDDEN);
    let done = harness
        .send(call(
            "POST",
            "/api/auth/Logout",
            Some(&session.cookie),
            Some(&session.csrf),
            None,
        ))
        .await;
    assert_eq!(done.status, StatusCode::NO_CONTENT);
    assert!(set_cookie(&done, "owner").unwrap().contains("Max-Age=0"));
    assert!(
        set_cookie(&done, "vitrine-owner")
            .unwrap()
            .contains("Max-Age=0")
    );
    let after = harness.context(&session, "path=/", "shop.example").await;
    assert_eq!(after["authenticatedAccount"], serde_json::Value::Null);
}

#[tokio::test]
async fn signing_out_from_config_goes_to_the_frame_page_with_logout_true() {
    let harness = harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let answer = harness
        .post_form(&session, "/config/sign-out", &[("frameUrl", "/shop")])
        .await;
    assert_eq!(answer.status, StatusCode::SEE_OTHER);
    assert_eq!(answer.header("location"), "/shop?logout=true");
}

#[tokio::test]
async fn a_signed_in_admin_is_redirected_to_config_except_where_000_s2_says_not() {
    let harness = harness().await;
    let admin = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let context = harness
        .context(&admin, "path=%2Fshop%3Fpage%3D2", "shop.example")
        .await;
    assert_eq!(
        context["authenticatedAccount"]["id"]
            .as_str()
            .unwrap()
            .len(),
        32
    );
    assert_eq!(
        context["redirectTo"],
        "/config/?frameUrl=%2Fshop%3Fpage%3D2"
    );
    assert_eq!(context["showAnnouncementBar"], true);
    assert_eq!(
        context["reservationPreviewAlert"],
        RESERVATION_PREVIEW_ALERT
    );
    for (query, host) in [
        ("path=/&noredirect=true", "shop.example"),
        ("path=/&inFrame=true", "shop.example"),
        ("path=/", "localhost:8080"),
        ("path=/", "127.0.0.1:18184"),
    ] {
        let context = harness.context(&admin, query, host).await;
        assert_eq!(
            context["redirectTo"],
            serde_json::Value::Null,
            "{query} on {host}"
        );
    }
    let viewer = harness
        .signed_in_as("val@example.com", ContributorRole::Viewer)
        .await;
    let context = harness.context(&viewer, "path=/", "shop.example").await;
    assert_eq!(context["redirectTo"], serde_json::Value::Null);
    assert_eq!(context["websiteRoles"]["viewer"], 10);
    assert_eq!(context["ownerExtras"], false);
}

#[tokio::test]
async fn developer_mode_and_cloneable_sites_never_redirect() {
    for flag in ["developer mode", "cloneable"] {
        let mut site = support::site();
        match flag {
            "developer mode" => site.website.developer_mode = true,
            _ => site.website.cloneable = true,
        }
        let repository = Arc::new(MemorySiteRepository::new());
        repository.replace_site(&site).await.unwrap();
        let harness = harness_over(repository, OwnerLimits::default(), config()).await;
        let admin = harness
            .signed_in_as("ada@example.com", ContributorRole::Admin)
            .await;
        let context = harness.context(&admin, "path=/", "shop.example").await;
        assert_eq!(context["redirectTo"], serde_json::Value::Null, "{flag}");
    }
}

#[tokio::test]
async fn a_visitor_gets_no_account_and_a_bad_query_a_json_400() {
    let harness = harness().await;
    let answer = harness
        .send(call("GET", "/api/owner/context?path=/", None, None, None))
        .await;
    let json: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(json["authenticatedAccount"], serde_json::Value::Null);
    let bad = harness
        .send(call(
            "GET",
            "/api/owner/context?inFrame=maybe",
            None,
            None,
            None,
        ))
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.header("content-type"), "application/json");
}

#[path = "owner_dashboard.rs"]
mod dashboard;
