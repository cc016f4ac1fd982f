//! Member areas through the router: the pages without JavaScript (sign up, confirm, sign
//! in, the member-access page and joining, the account page, reset, export, deletion and
//! sign out), and the gate's regression: a signed-in site user who is not a member of the
//! area is refused on every path (page, item, slide, media), then let in once a member.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use vitrine_core::forms::DeliveryOutbox;
use vitrine_core::forms::SiteLinks;
use vitrine_core::forms::memory::{MemoryFormStore, MemoryRateLimiter};
use vitrine_core::pages::PageService;
use vitrine_core::people::{
    InMemoryPeopleStore, PasswordCost, PasswordHasher, PeopleLimits, PeoplePorts, PeopleService,
    PersonalRecords,
};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{
    Block, BlockContent, GallerySlide, MediaRef, MemberArea, MemberAreaAccess, PermissionType,
    Site, Slug,
};
use vitrine_http::AppState;

use crate::support::{self, Answer, BASE_URL, config, fixture_assets, send};

pub struct Members {
    router: Router,
    outbox: Arc<MemoryFormStore>,
}

/// The fixture site with the journal members-only in the free area `readers`, and a gallery
/// on the journal whose one slide shows `/media/a.png` (which only the journal shows).
pub fn members_site() -> Site {
    let mut site = support::site();
    for collection in &mut site.collections {
        if collection.id.as_str() == "journal" {
            collection.permission_type = PermissionType::MembersOnly;
            let mut blocks: Vec<Block> = collection.body.layout.blocks().cloned().collect();
            blocks.push(Block {
                id: "journal-gallery".to_owned().try_into().unwrap(),
                content: BlockContent::Gallery {
                    design: "grid".into(),
                    slides: vec![GallerySlide {
                        id: "kiln".into(),
                        image: MediaRef {
                            path: "/media/a.png".into(),
                            alt: "The kiln".into(),
                            width: 4,
                            height: 3,
                            version: None,
                        },
                        title: Some("Kiln secret".into()),
                        caption: None,
                        video: None,
                        link: None,
                    }],
                    lightbox: true,
                    autoplay: false,
                    options: Default::default(),
                },
            });
            collection.body.layout = vitrine_core::site::Layout::stacked(blocks).unwrap();
        }
    }
    site.settings.member_areas = vec![MemberArea {
        id: Slug::parse("readers").unwrap(),
        title: "Readers".into(),
        description: "Every post of the journal.".into(),
        access: MemberAreaAccess::Free,
        pages: vec!["journal".to_owned().try_into().unwrap()],
    }];
    site
}

pub async fn members_over(site: &Site) -> Members {
    members_with(site, |state, _| state).await
}

/// [`members_over`], with `extend` adding to the server's state (a store over the site's
/// repository, say).
pub async fn members_with(
    site: &Site,
    extend: impl FnOnce(AppState, Arc<dyn SiteRepository>) -> AppState,
) -> Members {
    let orders = Arc::new(vitrine_core::checkout::InMemoryCommerceStore::new());
    members_erasing(site, orders, None, extend).await
}

/// [`members_with`], where deleting an account erases its address from `orders` and from
/// `newsletters` (the account mails' outbox without one): the stores `extend` hands the
/// state, so that a test sees deletion erase what the pages show.
pub async fn members_erasing(
    site: &Site,
    orders: Arc<dyn vitrine_core::checkout::CommerceStore>,
    newsletters: Option<Arc<dyn vitrine_core::forms::NewsletterSubscriptions>>,
    extend: impl FnOnce(AppState, Arc<dyn SiteRepository>) -> AppState,
) -> Members {
    let contributions = Arc::new(vitrine_core::checkout::InMemoryContributionStore::new());
    members_erasing_donations(site, orders, newsletters, contributions, extend).await
}

/// [`members_erasing`], the accounts' donations kept in `contributions`.
pub async fn members_erasing_donations(
    site: &Site,
    orders: Arc<dyn vitrine_core::checkout::CommerceStore>,
    newsletters: Option<Arc<dyn vitrine_core::forms::NewsletterSubscriptions>>,
    contributions: Arc<dyn vitrine_core::checkout::ContributionStore>,
    extend: impl FnOnce(AppState, Arc<dyn SiteRepository>) -> AppState,
) -> Members {
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(site).await.unwrap();
    let pages = Arc::new(PageService::new(repository.clone()));
    let outbox = Arc::new(MemoryFormStore::new());
    let people = Arc::new(PeopleService::new(
        PeoplePorts {
            store: Arc::new(InMemoryPeopleStore::new()),
            outbox: outbox.clone(),
            limiter: Arc::new(MemoryRateLimiter::new()),
            secrets: Arc::new(vitrine_http::site_users::OsSecrets),
            passwords: Arc::new(PasswordHasher::new(PasswordCost::TESTS_ONLY).unwrap()),
            records: PersonalRecords {
                orders,
                newsletters: newsletters.unwrap_or_else(|| outbox.clone()),
                contributions,
            },
        },
        SiteLinks::new(BASE_URL),
        PeopleLimits::default(),
    ));
    let state = extend(
        AppState::new(
            pages,
            repository.clone(),
            Arc::new(fixture_assets()),
            config(),
        )
        .with_people(people),
        repository,
    );
    Members {
        router: vitrine_http::router(state),
        outbox,
    }
}

/// A same-origin form post, as a browser sends it from a page of the site.
pub fn form_post(path: &str, fields: &[(&str, &str)], session: Option<&str>) -> Request<Body> {
    let body: String = url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .finish();
    let mut request = Request::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("sec-fetch-site", "same-origin");
    if let Some(session) = session {
        request = request.header("cookie", format!("siteuser={session}"));
    }
    request.body(Body::from(body)).unwrap()
}

pub fn page(path: &str, session: Option<&str>) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(session) = session {
        request = request.header("cookie", format!("siteuser={session}"));
    }
    request.body(Body::empty()).unwrap()
}

/// The value of the hidden input `name` in `html`.
pub fn hidden(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html
        .find(&marker)
        .unwrap_or_else(|| panic!("no {name}: {html}"))
        + marker.len();
    html[start..].split('"').next().unwrap().to_owned()
}

impl Members {
    pub async fn send(&self, request: Request<Body>) -> Answer {
        send(&self.router, request).await
    }

    /// The token in the link of the last mail to `to`.
    pub async fn token_mailed_to(&self, to: &str) -> String {
        let mut token = None;
        for record in self.outbox.deliveries().await.unwrap() {
            if let Some(mail) = self.outbox.mail_of(record.id).await.unwrap()
                && mail.to == to
            {
                let start = mail.text.find("token=").unwrap() + 6;
                token = Some(mail.text[start..start + 64].to_owned());
            }
        }
        token.expect("a mail with a link was sent")
    }

    /// How many mails to `to` wait in the outbox, not yet sent.
    pub async fn unsent_mails_to(&self, to: &str) -> usize {
        let mut unsent = 0;
        for record in self.outbox.deliveries().await.unwrap() {
            if let Some(mail) = self.outbox.mail_of(record.id).await.unwrap()
                && mail.to.eq_ignore_ascii_case(to)
                && record.delivered_ms.is_none()
            {
                unsent += 1;
            }
        }
        unsent
    }

    /// Signs up, confirms and signs in through the pages; the session cookie.
    pub async fn member(&self, email: &str) -> String {
        let password = "correct horse";
        let signed_up = self
            .send(form_post(
                "/account/sign-up",
                &[("email", email), ("password", password)],
                None,
            ))
            .await;
        assert_eq!(
            signed_up.status,
            StatusCode::ACCEPTED,
            "{}",
            signed_up.text()
        );
        assert!(signed_up.text().contains("Check your email"));
        let token = self.token_mailed_to(email).await;
        let confirm_page = self
            .send(page(&format!("/account/confirm?token={token}"), None))
            .await;
        assert_eq!(hidden(&confirm_page.text(), "token"), token);
        let confirmed = self
            .send(form_post("/account/confirm", &[("token", &token)], None))
            .await;
        assert_eq!(confirmed.status, StatusCode::OK, "{}", confirmed.text());
        assert!(confirmed.text().contains("Your email address is confirmed"));
        let signed_in = self
            .send(form_post(
                "/account/sign-in",
                &[
                    ("email", email),
                    ("password", password),
                    ("return", "/journal"),
                ],
                None,
            ))
            .await;
        assert_eq!(
            signed_in.status,
            StatusCode::SEE_OTHER,
            "{}",
            signed_in.text()
        );
        assert_eq!(signed_in.header("location"), "/journal");
        let cookie = signed_in.header("set-cookie");
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        cookie
            .strip_prefix("siteuser=")
            .and_then(|rest| rest.split(';').next())
            .unwrap()
            .to_owned()
    }

    /// The XSRF token the account page gives the holder of `session`.
    pub async fn xsrf(&self, session: &str) -> String {
        hidden(
            &self.send(page("/account", Some(session))).await.text(),
            "xsrf",
        )
    }

    /// Posts the account page's deletion form, ticked, as the holder of `session`.
    pub async fn delete_account(&self, session: &str, xsrf: &str) -> Answer {
        let fields = [("xsrf", xsrf), ("confirm", "delete")];
        self.send(form_post("/account/delete", &fields, Some(session)))
            .await
    }
}

const GATED_PATHS: [&str; 4] = [
    "/journal",
    "/journal/first",
    "/journal/slides/kiln",
    "/media/a.png",
];

fn assert_refused(answer: &Answer, path: &str, text: &str) {
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{path}");
    let html = answer.text();
    assert!(
        html.contains("This page available only site members"),
        "{path}: {html}"
    );
    assert!(html.contains(text), "{path}: {html}");
    assert_eq!(answer.page_context()["pageType"], 106, "{path}");
    for secret in ["Post first", "Kiln secret", "src=\"/media/a.png"] {
        assert!(!html.contains(secret), "{path} leaked {secret}");
    }
}

/// Regression: any signed-in site user passed a members-only gate, member or not.
#[tokio::test]
async fn a_signed_in_user_who_is_not_a_member_of_the_area_is_refused_on_every_path() {
    let app = members_over(&members_site()).await;
    let session = app.member("ada@example.com").await;
    for path in GATED_PATHS {
        let answer = app.send(page(path, Some(&session))).await;
        assert_refused(
            &answer,
            path,
            "Your account is not a member of the area this page belongs to.",
        );
        assert!(
            answer.text().contains("/account/member-access?return="),
            "{path}"
        );
    }
    // Joining the free area opens every path, to this account only.
    let xsrf = app.xsrf(&session).await;
    let joined = app
        .send(form_post(
            "/account/member-access/join",
            &[
                ("area", "readers"),
                ("xsrf", &xsrf),
                ("return", "/journal/first"),
            ],
            Some(&session),
        ))
        .await;
    assert_eq!(joined.status, StatusCode::SEE_OTHER, "{}", joined.text());
    assert_eq!(joined.header("location"), "/journal/first");
    for path in GATED_PATHS {
        let answer = app.send(page(path, Some(&session))).await;
        assert_eq!(answer.status, StatusCode::OK, "{path}");
        assert!(
            answer.header("cache-control").starts_with("private"),
            "{path}"
        );
    }
    assert!(
        app.send(page("/journal/first", Some(&session)))
            .await
            .text()
            .contains("Post first")
    );
    let other = app.member("bob@example.com").await;
    for path in GATED_PATHS {
        let answer = app.send(page(path, Some(&other))).await;
        assert_refused(&answer, path, "Your account is not a member");
    }
}

#[tokio::test]
async fn an_anonymous_visitor_is_offered_to_sign_in_and_sees_nothing_gated() {
    let app = members_over(&members_site()).await;
    for path in GATED_PATHS {
        let answer = app.send(page(path, None)).await;
        assert_refused(
            &answer,
            path,
            "Site members can see this page once they sign in.",
        );
        let encoded: String = url::form_urlencoded::byte_serialize(path.as_bytes()).collect();
        assert!(
            answer
                .text()
                .contains(&format!("/account/member-access?return={encoded}")),
            "{path}"
        );
    }
    let access = app
        .send(page("/account/member-access?return=/journal", None))
        .await;
    assert_eq!(access.status, StatusCode::OK);
    let html = access.text();
    assert!(
        html.contains("id=\"sqs-member-access-page-root\""),
        "{html}"
    );
    assert!(html.contains("Readers") && html.contains("Free with a site account."));
    assert!(
        html.contains("action=\"/account/sign-in\""),
        "sign-in offered: {html}"
    );
    assert!(
        html.contains("action=\"/account/sign-up\""),
        "sign-up offered"
    );
    assert!(
        !html.contains("/account/member-access/join"),
        "joining needs an account"
    );
}

#[tokio::test]
async fn joining_needs_the_xsrf_token_a_same_origin_post_and_a_free_area() {
    let app = members_over(&members_site()).await;
    let session = app.member("ada@example.com").await;
    let without = app
        .send(form_post(
            "/account/member-access/join",
            &[("area", "readers")],
            Some(&session),
        ))
        .await;
    assert_eq!(without.status, StatusCode::FORBIDDEN);
    let xsrf = app.xsrf(&session).await;
    let mut cross_site = form_post(
        "/account/member-access/join",
        &[("area", "readers"), ("xsrf", &xsrf)],
        Some(&session),
    );
    cross_site
        .headers_mut()
        .insert("sec-fetch-site", "cross-site".parse().unwrap());
    assert_eq!(app.send(cross_site).await.status, StatusCode::FORBIDDEN);
    let unknown = app
        .send(form_post(
            "/account/member-access/join",
            &[("area", "nope"), ("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    assert!(unknown.text().contains("This member area does not exist."));
    assert_eq!(
        app.send(page("/journal", Some(&session))).await.status,
        StatusCode::FORBIDDEN,
        "still not a member"
    );
}

#[tokio::test]
async fn a_paid_area_shows_the_pricing_toggle_and_cannot_be_joined_for_free() {
    let mut site = members_site();
    let tote = site
        .items
        .iter_mut()
        .find(|item| item.product.is_some())
        .expect("the fixture has a product");
    let plan = tote.id.clone();
    let product = tote.product.as_mut().unwrap();
    product.subscription_plan = Some(vitrine_core::catalog::SubscriptionPlan {
        num_billing_cycles: None,
        billing_period: vitrine_core::catalog::BillingPeriod {
            value: 1,
            unit: vitrine_core::catalog::BillingUnit::Month,
        },
    });
    let shop = tote.collection_id.clone();
    for collection in &mut site.collections {
        if collection.id == shop {
            collection.permission_type = PermissionType::Public;
        }
    }
    site.settings.member_areas[0].access = MemberAreaAccess::Paid {
        plans: vec![plan.clone(), plan],
    };
    let app = members_over(&site).await;
    let html = app.send(page("/account/member-access", None)).await.text();
    assert!(html.contains("data-pricing-toggle"), "{html}");
    assert!(
        html.contains("aria-pressed=\"true\" data-side=\"left\">Monthly"),
        "{html}"
    );
    assert!(
        html.contains("aria-pressed=\"false\" data-side=\"right\">Yearly"),
        "{html}"
    );
    let session = app.member("ada@example.com").await;
    let xsrf = app.xsrf(&session).await;
    let refused = app
        .send(form_post(
            "/account/member-access/join",
            &[("area", "readers"), ("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(refused.status, StatusCode::PAYMENT_REQUIRED);
    assert!(refused.text().contains("joined by subscribing"));
}

#[tokio::test]
async fn the_account_page_exports_deletes_with_confirmation_and_signs_out() {
    let app = members_over(&members_site()).await;
    let anonymous = app.send(page("/account", None)).await;
    assert_eq!(anonymous.status, StatusCode::SEE_OTHER);
    assert_eq!(
        anonymous.header("location"),
        "/account/sign-in?return=%2Faccount"
    );

    let session = app.member("ada@example.com").await;
    let account = app.send(page("/account", Some(&session))).await;
    assert_eq!(account.status, StatusCode::OK);
    assert_eq!(account.header("cache-control"), "no-store");
    let html = account.text();
    assert!(html.contains("ada@example.com"), "{html}");
    let xsrf = hidden(&html, "xsrf");

    let export = app.send(page("/account/export.json", Some(&session))).await;
    assert_eq!(export.header("content-type"), "application/json");
    assert_eq!(export.json()["email"], "ada@example.com");
    assert!(
        export
            .header("content-disposition")
            .starts_with("attachment")
    );

    let unconfirmed = app
        .send(form_post(
            "/account/delete",
            &[("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(unconfirmed.status, StatusCode::BAD_REQUEST);
    assert!(unconfirmed.text().contains("Please tick the box"));
    let no_xsrf = app
        .send(form_post(
            "/account/delete",
            &[("confirm", "delete")],
            Some(&session),
        ))
        .await;
    assert_eq!(no_xsrf.status, StatusCode::FORBIDDEN);

    let signed_out = app
        .send(form_post(
            "/account/sign-out",
            &[("xsrf", &xsrf)],
            Some(&session),
        ))
        .await;
    assert_eq!(signed_out.status, StatusCode::SEE_OTHER);
    assert_eq!(signed_out.header("location"), "/?logout=true");
    assert_eq!(
        app.send(page("/account", Some(&session))).await.status,
        StatusCode::SEE_OTHER,
        "the session ended"
    );

    let session = app.member("bob@example.com").await;
    let xsrf = app.xsrf(&session).await;
    let deleted = app.delete_account(&session, &xsrf).await;
    assert_eq!(deleted.status, StatusCode::OK);
    assert!(deleted.text().contains("Your account has been deleted."));
    let again = app
        .send(form_post(
            "/account/sign-in",
            &[("email", "bob@example.com"), ("password", "correct horse")],
            None,
        ))
        .await;
    assert_eq!(again.status, StatusCode::UNAUTHORIZED);
    assert!(again.text().contains("The email or password is incorrect."));
}

#[tokio::test]
async fn a_password_is_reset_through_the_pages_without_telling_who_has_an_account() {
    let app = members_over(&members_site()).await;
    app.member("ada@example.com").await;
    let known = app
        .send(form_post(
            "/account/forgot-password",
            &[("email", "ada@example.com")],
            None,
        ))
        .await;
    let unknown = app
        .send(form_post(
            "/account/forgot-password",
            &[("email", "nobody@example.com")],
            None,
        ))
        .await;
    assert_eq!(known.status, StatusCode::ACCEPTED);
    assert_eq!(known.status, unknown.status);
    assert_eq!(known.text(), unknown.text(), "the same answer either way");
    let token = app.token_mailed_to("ada@example.com").await;
    let form = app
        .send(page(&format!("/account/reset?token={token}"), None))
        .await;
    assert_eq!(hidden(&form.text(), "token"), token);
    let short = app
        .send(form_post(
            "/account/reset",
            &[("token", &token), ("password", "short")],
            None,
        ))
        .await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST);
    let reset = app
        .send(form_post(
            "/account/reset",
            &[("token", &token), ("password", "a new long secret")],
            None,
        ))
        .await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.text());
    assert!(reset.text().contains("Your password has been changed."));
    let signed_in = app
        .send(form_post(
            "/account/sign-in",
            &[
                ("email", "ada@example.com"),
                ("password", "a new long secret"),
            ],
            None,
        ))
        .await;
    assert_eq!(signed_in.status, StatusCode::SEE_OTHER);
    assert_eq!(
        signed_in.header("location"),
        "/account",
        "no return: the account page"
    );
}

#[tokio::test]
async fn a_sign_in_page_never_sends_a_visitor_to_another_site() {
    let app = members_over(&members_site()).await;
    app.member("ada@example.com").await;
    for evil in [
        "//evil.example/",
        "https://evil.example/",
        "/\\evil.example",
    ] {
        let answer = app
            .send(form_post(
                "/account/sign-in",
                &[
                    ("email", "ada@example.com"),
                    ("password", "correct horse"),
                    ("return", evil),
                ],
                None,
            ))
            .await;
        assert_eq!(answer.header("location"), "/account", "{evil}");
    }
}

fn quick_view(session: Option<&str>) -> Request<Body> {
    let mut cookies = "crumb=test-crumb".to_owned();
    if let Some(session) = session {
        cookies.push_str(&format!("; siteuser={session}"));
    }
    Request::post("/api/census/RecordQuickView/tote?crumb=test-crumb")
        .header("cookie", cookies)
        .body(Body::empty())
        .unwrap()
}

/// A quick view of a product in a members-only collection is counted only for a viewer the
/// gate lets in; to anyone else the product does not exist.
#[tokio::test]
async fn a_quick_view_of_a_gated_product_is_a_404_for_a_viewer_the_gate_refuses() {
    let app = members_over(&members_site()).await;
    assert_eq!(
        app.send(quick_view(None)).await.status,
        StatusCode::NOT_FOUND
    );
    let session = app.member("ada@example.com").await;
    assert_eq!(
        app.send(quick_view(Some(&session))).await.status,
        StatusCode::NOT_FOUND,
        "signed in but not a member"
    );
    let xsrf = app.xsrf(&session).await;
    app.send(form_post(
        "/account/member-access/join",
        &[("area", "readers"), ("xsrf", &xsrf)],
        Some(&session),
    ))
    .await;
    assert_eq!(
        app.send(quick_view(Some(&session))).await.status,
        StatusCode::OK
    );
}

/// The members site with the member-area navigation, a hidden link, and a member-area block
/// on the FAQ page.
fn site_with_member_navigation() -> Site {
    let mut site = members_site();
    site.navigation.member_areas = vec![vitrine_core::site::MemberAreaLink {
        area: Slug::parse("readers").unwrap(),
        title: "Readers".into(),
        href: "/journal".into(),
    }];
    site.navigation.hidden = vec![vitrine_core::site::NavLink {
        title: "Hidden faq".into(),
        href: "/faq".into(),
    }];
    for collection in &mut site.collections {
        if collection.id.as_str() == "faq" {
            let mut blocks: Vec<Block> = collection.body.layout.blocks().cloned().collect();
            blocks.push(Block {
                id: "readers-block".to_owned().try_into().unwrap(),
                content: BlockContent::MemberArea {
                    area: Slug::parse("readers").unwrap(),
                },
            });
            collection.body.layout = vitrine_core::site::Layout::stacked(blocks).unwrap();
        }
    }
    site
}

#[tokio::test]
async fn the_member_area_navigation_links_each_area_then_sign_in_or_the_account() {
    let app = members_over(&site_with_member_navigation()).await;
    let anonymous = app.send(page("/faq", None)).await;
    assert_eq!(anonymous.status, StatusCode::OK);
    let html = anonymous.text();
    assert!(
        html.contains("aria-label=\"Member areas\" data-navigation=\"_memberareas\""),
        "{html}"
    );
    assert!(
        html.contains("href=\"/journal\" data-navigation-type=\"member-area\">Readers</a>"),
        "{html}"
    );
    assert!(
        html.contains("href=\"/account/sign-in?return=%2Ffaq\">Sign in</a>"),
        "{html}"
    );
    // `_hidden` links are in no menu.
    assert!(!html.contains("Hidden faq"), "{html}");

    let session = app.member("ada@example.com").await;
    let signed_in = app.send(page("/faq", Some(&session))).await.text();
    assert!(
        signed_in.contains("member-nav__account\" href=\"/account\">Account</a>"),
        "{signed_in}"
    );
    assert!(!signed_in.contains(">Sign in</a>"), "{signed_in}");
    // Anonymous pages are shared: the signed-in page did not go into the shared cache.
    assert!(
        app.send(page("/faq", None))
            .await
            .text()
            .contains(">Sign in</a>")
    );
}

#[tokio::test]
async fn the_member_area_block_names_the_area_and_links_to_the_member_access_page() {
    let app = members_over(&site_with_member_navigation()).await;
    let html = app.send(page("/faq", None)).await.text();
    assert!(html.contains("class=\"member-area-block\""), "{html}");
    assert!(html.contains(">Readers</h2>"), "{html}");
    assert!(html.contains("Every post of the journal."), "{html}");
    assert!(html.contains("Free with a site account."), "{html}");
    assert!(
        html.contains("href=\"/account/member-access?return=%2Ffaq\">Sign in or join</a>"),
        "{html}"
    );
}

/// Regression: site search left members-only posts out for members too; it must still leave
/// them out for everyone else.
#[tokio::test]
async fn search_finds_the_areas_posts_for_a_member_and_for_nobody_else() {
    let app = members_over(&members_site()).await;
    let found = |html: String| html.contains("/journal/first");
    assert!(!found(app.send(page("/search?q=post", None)).await.text()));
    let session = app.member("ada@example.com").await;
    assert!(!found(
        app.send(page("/search?q=post", Some(&session)))
            .await
            .text()
    ));
    let xsrf = app.xsrf(&session).await;
    app.send(form_post(
        "/account/member-access/join",
        &[("area", "readers"), ("xsrf", &xsrf), ("return", "/")],
        Some(&session),
    ))
    .await;
    assert!(found(
        app.send(page("/search?q=post", Some(&session)))
            .await
            .text()
    ));
    let sitemap = app.send(page("/sitemap.xml", Some(&session))).await.text();
    assert!(
        !sitemap.contains("/journal"),
        "the sitemap never lists it: {sitemap}"
    );
}

/// Regression: the cart calls added a members-only collection's product for anyone who knew its
/// id, showing its title and price; a non-member now meets the unknown-product answer.
#[tokio::test]
async fn a_gated_product_cannot_be_added_to_the_cart_by_a_viewer_the_gate_refuses() {
    // The fixture's one product, the tote, belongs to the members-only journal.
    let site = members_site();
    let app = members_over(&site).await;
    let product = site
        .items
        .iter()
        .find(|item| item.id.as_str() == "tote")
        .expect("the fixture has the tote");
    assert!(product.product.is_some());
    let sku = product.product.as_ref().unwrap().variants[0]
        .sku
        .as_str()
        .to_owned();
    let api_add = |session: Option<&str>| {
        let mut request = Request::post("/api/commerce/cart/items?crumb=c")
            .header("content-type", "application/json");
        let cookie = match session {
            Some(session) => format!("crumb=c; siteuser={session}"),
            None => "crumb=c".to_owned(),
        };
        request = request.header("cookie", cookie);
        request
            .body(Body::from(
                serde_json::json!({"itemId": product.id.as_str(), "sku": sku, "quantity": 1})
                    .to_string(),
            ))
            .unwrap()
    };
    let refused = app.send(api_add(None)).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{}", refused.text());
    assert!(
        !refused.text().contains(&product.title),
        "{}",
        refused.text()
    );
    let no_js = app
        .send(form_post(
            "/cart",
            &[
                ("itemId", product.id.as_str()),
                ("sku", &sku),
                ("quantity", "1"),
            ],
            None,
        ))
        .await;
    assert!(!no_js.text().contains(&product.title), "{}", no_js.text());
    assert_ne!(no_js.status, StatusCode::SEE_OTHER);

    let session = app.member("ada@example.com").await;
    let xsrf = app.xsrf(&session).await;
    app.send(form_post(
        "/account/member-access/join",
        &[("area", "readers"), ("xsrf", &xsrf), ("return", "/")],
        Some(&session),
    ))
    .await;
    let added = app.send(api_add(Some(&session))).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
}
