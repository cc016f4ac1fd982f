//! Router tests of the owner dashboard: the page and its JSON per range (today, 7 and 30
//! days, two dates) against the range before, what each role may read, API keys within their
//! scopes, and the tables that are the dashboard without JavaScript.

use vitrine_core::analytics::{
    AnalyticsStore, DayRange, MemoryAnalyticsStore, PAGE_VIEW, RangePreset, StoredHit, day_number,
    iso_date, kinds,
};
use vitrine_core::enums::PermissionCode;
use vitrine_core::owners::{role_permissions, role_reads_analytics};

use super::*;

const DAY_MS: i64 = 86_400_000;

/// The headings of the figures issue 18 added beyond views, orders and the first top lists.
const FIGURES_BEYOND_VIEWS: [&str; 6] = [
    "Campaigns",
    "Devices",
    "Top products",
    "Newsletter sign-ups per day",
    "Script errors",
    "Plugin failures",
];

fn today() -> i64 {
    day_number(now_seconds() * 1000)
}

fn row(kind: &str, day: i64, cents: Option<f64>) -> StoredHit {
    StoredHit {
        kind: kind.to_owned(),
        visitor_key: Some(format!("visitor-{day}")),
        cookieless: false,
        page_path: Some("/shop".to_owned()),
        data: "{}".to_owned(),
        recorded_at_ms: day * DAY_MS + 1000,
        subject: None,
        metric_value: cents,
        campaign: None,
        device: None,
    }
}

/// A harness whose analytics store holds, `n` days ago, `n + 1` page views, for every day of
/// the last 60, and one order of 12.50 today and one 8 days ago.
async fn dashboard_harness() -> Harness {
    let owners = owner_service(OwnerLimits::default());
    let store = Arc::new(MemoryAnalyticsStore::new());
    let mut rows = Vec::new();
    for ago in 0..60 {
        rows.extend((0..=ago).map(|_| row(PAGE_VIEW, today() - ago, None)));
    }
    rows.push(row(kinds::ORDER, today(), Some(1250.0)));
    rows.push(row(kinds::ORDER, today() - 8, Some(990.0)));
    store.record_batch(&rows).await.unwrap();
    let state = owner_state(support::repository().await, owners.clone(), config())
        .with_analytics_store(store);
    Harness {
        router: vitrine_http::router(state),
        owners,
    }
}

fn page_request(query: &str, session: &Session) -> Request<Body> {
    owner_page(&format!("/config/dashboard{query}"), &session.cookie)
}

async fn data(
    harness: &Harness,
    query: &str,
    session: &Session,
) -> (StatusCode, serde_json::Value) {
    let answer = harness
        .send(call(
            "GET",
            &format!("/api/owner/dashboard{query}"),
            Some(&session.cookie),
            None,
            None,
        ))
        .await;
    assert_eq!(answer.header("cache-control"), "no-store");
    (answer.status, serde_json::from_slice(&answer.body).unwrap())
}

/// The sum of `n + 1` over the days `ago_first..=ago_last` days ago.
fn views_between(ago_last: i64, ago_first: i64) -> u64 {
    (ago_last..=ago_first).map(|ago| (ago + 1) as u64).sum()
}

#[tokio::test]
async fn each_range_is_read_and_compared_with_the_range_before() {
    let harness = dashboard_harness().await;
    let session = harness
        .signed_in_as("rita@example.com", ContributorRole::Reporting)
        .await;
    for (query, days) in [
        ("?range=today", 1),
        ("", 7),
        ("?range=7d", 7),
        ("?range=30d", 30),
    ] {
        let (status, json) = data(&harness, query, &session).await;
        assert_eq!(status, StatusCode::OK, "{query}: {json}");
        let range = &json["report"]["range"];
        assert_eq!(range["last"], today(), "{query}");
        assert_eq!(range["first"], today() - (days - 1), "{query}");
        assert_eq!(
            json["report"]["days"].as_array().unwrap().len(),
            days as usize
        );
        assert_eq!(
            json["totals"]["views"],
            views_between(0, days - 1),
            "{query}"
        );
        assert_eq!(
            json["previousTotals"]["views"],
            views_between(days, 2 * days - 1),
            "{query}"
        );
        assert_eq!(json["previousRange"]["last"], today() - days, "{query}");
    }
    let (_, week) = data(&harness, "?range=7d", &session).await;
    assert_eq!(week["totals"]["orders"], 1);
    assert_eq!(week["totals"]["revenueCents"], 1250);
    assert_eq!(week["previousTotals"]["revenueCents"], 990);
    assert_eq!(week["changes"]["views"], (28.0 - 77.0) * 100.0 / 77.0);

    let first = iso_date(today() - 40);
    let last = iso_date(today() - 31);
    let (status, custom) = data(
        &harness,
        &format!("?range=custom&from={first}&to={last}"),
        &session,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{custom}");
    assert_eq!(custom["totals"]["views"], views_between(31, 40));
    assert_eq!(custom["previousRange"]["last"], today() - 41);
}

#[tokio::test]
async fn a_range_that_does_not_parse_is_a_400_that_says_why() {
    let harness = dashboard_harness().await;
    let session = harness
        .signed_in_as("rita@example.com", ContributorRole::Reporting)
        .await;
    for (query, message) in [
        (
            "?range=year",
            "\"year\" is not a range: use today, 7d, 30d or custom.",
        ),
        (
            "?range=custom&from=2026-02-30&to=2026-03-01",
            "\"2026-02-30\" is not a date: write it as YYYY-MM-DD.",
        ),
        (
            "?range=custom&from=2026-03-02&to=2026-03-01",
            "The range ends before it starts.",
        ),
        (
            "?range=custom&from=2024-01-01&to=2025-06-01",
            "A range may cover at most 366 days.",
        ),
    ] {
        let (status, json) = data(&harness, query, &session).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(json["error"], message, "{query}");
        let page = harness.send(page_request(query, &session)).await;
        assert_eq!(page.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(page.text().contains("role=\"alert\""), "{query}");
    }
}

#[tokio::test]
async fn only_roles_that_may_read_the_analytics_see_the_dashboard() {
    let harness = dashboard_harness().await;
    for (n, role) in ContributorRole::ALL.iter().enumerate() {
        let session = harness
            .signed_in_as(&format!("person{n}@example.com"), *role)
            .await;
        let expected = if role_reads_analytics(*role) {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        let (status, _) = data(&harness, "?range=30d", &session).await;
        assert_eq!(status, expected, "{role} on the data");
        let page = harness.send(page_request("?range=30d", &session)).await;
        assert_eq!(page.status, expected, "{role} on the page");
        let report = harness
            .send(call(
                "GET",
                "/api/analytics/report",
                Some(&session.cookie),
                None,
                None,
            ))
            .await;
        let reported = if role_reads_analytics(*role) {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };
        assert_eq!(report.status, reported, "{role} on the report");
        // /config/ opens for every role with the config code; the dashboard only for those
        // who read the analytics.
        let config = harness.send(config_request("", &session)).await;
        if role_permits(*role, PermissionCode::Config) {
            assert_eq!(config.status, StatusCode::OK, "{role} on /config/");
            assert_eq!(
                config.text().contains("id=\"dashboard-traffic-table\""),
                role_reads_analytics(*role),
                "{role} on /config/"
            );
        } else {
            assert_eq!(config.status, StatusCode::FORBIDDEN, "{role} on /config/");
        }
    }
    assert!(role_reads_analytics(ContributorRole::Reporting));
    assert!(role_reads_analytics(ContributorRole::Viewer));
    assert!(!role_reads_analytics(ContributorRole::StoreManager));
    assert!(!role_reads_analytics(ContributorRole::Editor));
}

/// The admin's "Activity in your open tabs" panel (fed by the admin channel of 001 s6 in the
/// browser) is rendered for the admin permission alone: every other role's /config/ has no
/// trace of it, so its script never opens the channel there.
#[tokio::test]
async fn only_the_admin_permission_gets_the_tab_activity_panel_on_config() {
    let harness = dashboard_harness().await;
    for (n, role) in ContributorRole::ALL.iter().enumerate() {
        if !role_permits(*role, PermissionCode::Config) {
            continue;
        }
        let session = harness
            .signed_in_as(&format!("tabs{n}@example.com"), *role)
            .await;
        let html = harness.send(config_request("", &session)).await.text();
        let admin = role_permits(*role, PermissionCode::Admin);
        assert_eq!(html.contains("data-tab-activity"), admin, "{role}");
        assert_eq!(
            html.contains("<h2 id=\"tab-activity-title\">Activity in your open tabs</h2>"),
            admin,
            "{role}"
        );
        if admin {
            // Hidden until the script opens the channel; the gate's codes are the role's.
            let codes = role_permissions(*role)
                .iter()
                .map(|code| code.code().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                html.contains(&format!("data-permissions=\"{codes}\" hidden>")),
                "{html}"
            );
            assert!(html.contains("action=\"/config/sign-out\" data-sign-out>"));
        }
    }
}

fn config_request(query: &str, session: &Session) -> Request<Body> {
    owner_page(&format!("/config/{query}"), &session.cookie)
}

#[tokio::test]
async fn without_an_owner_the_data_is_401_and_the_page_asks_to_sign_in() {
    let harness = dashboard_harness().await;
    let answer = harness
        .send(call("GET", "/api/owner/dashboard", None, None, None))
        .await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    let page = harness
        .send(
            Request::get("/config/dashboard")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);
    assert_eq!(page.header("location"), "/config/");
    let wrong = harness
        .send(call(
            "GET",
            "/api/owner/dashboard",
            None,
            None,
            Some("vk_wrong"),
        ))
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn api_keys_read_the_dashboard_within_their_scopes() {
    let harness = dashboard_harness().await;
    let (owner, _) = harness
        .owners
        .add(
            "ada@example.com",
            ContributorRole::Admin,
            Some(PASSWORD),
            now(),
        )
        .await
        .unwrap();
    for (scopes, expected) in [
        (vec![PermissionCode::Config], StatusCode::OK),
        (vec![PermissionCode::Commerce], StatusCode::FORBIDDEN),
    ] {
        let key = harness
            .owners
            .create_api_key(&owner, "script", &scopes, now())
            .await
            .unwrap();
        let answer = harness
            .send(call(
                "GET",
                "/api/owner/dashboard?range=30d",
                None,
                None,
                Some(&key.secret),
            ))
            .await;
        assert_eq!(answer.status, expected, "{scopes:?}");
    }
    let token = harness
        .send(call(
            "GET",
            "/api/owner/dashboard",
            None,
            None,
            Some(ENV_TOKEN),
        ))
        .await;
    assert_eq!(token.status, StatusCode::OK);
}

#[tokio::test]
async fn a_viewer_reads_every_figure_as_tables_and_is_offered_nothing_to_change() {
    let harness = dashboard_harness().await;
    let session = harness
        .signed_in_as("vera@example.com", ContributorRole::Viewer)
        .await;
    let page = harness.send(page_request("?range=7d", &session)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert_eq!(page.header("cache-control"), "no-store");
    let html = page.text();
    assert!(
        !html.contains("method=\"post\""),
        "the dashboard only reads"
    );
    let range = DayRange::preset(RangePreset::Last7Days, today());
    assert!(html.contains(&range.describe()));
    assert!(html.contains(&format!(
        "compared with {}",
        range.previous().unwrap().describe()
    )));
    // Every day of the range is a row of the traffic table, empty days included, and the
    // cells carry the raw figures the chart draws.
    for day in range.days() {
        assert!(html.contains(&format!(
            "<tr data-day=\"{day}\"><th scope=\"row\">{}</th>",
            iso_date(day)
        )));
    }
    assert!(html.contains("<table id=\"dashboard-traffic-table\" data-chart=\"line\">"));
    assert!(
        html.contains("<td data-value=\"12.5\">12.50</td>"),
        "today's revenue"
    );
    assert!(
        html.contains("<th scope=\"row\">/shop</th><td>28</td>"),
        "{html}"
    );
    for heading in [
        "At a glance",
        "Visitors and page views per day",
        "Orders and revenue per day",
        "Top pages",
        "Referring sites",
        "Button clicks",
        "Form conversion",
        "Core Web Vitals",
    ]
    .into_iter()
    .chain(FIGURES_BEYOND_VIEWS)
    {
        assert!(html.contains(&format!(">{heading}</h2>")), "{heading}");
    }
    assert!(
        !html.contains(">Experiments</h2>"),
        "no experiments are defined"
    );
}

#[tokio::test]
async fn config_shows_the_live_site_and_the_dashboard_of_the_picked_range() {
    let harness = dashboard_harness().await;
    let session = harness
        .signed_in_as("ada@example.com", ContributorRole::Admin)
        .await;
    let config = harness
        .send(config_request(
            "?frameUrl=%2Fshop%3Fpage%3D2&range=30d",
            &session,
        ))
        .await;
    assert_eq!(config.status, StatusCode::OK);
    let html = config.text();
    assert!(html.contains("src=\"/shop?page=2\""), "{html}");
    assert!(html.contains("<h2 id=\"dashboard-title\">Dashboard</h2>"));
    let range = DayRange::preset(RangePreset::Last30Days, today());
    assert!(html.contains(&range.describe()));
    // The picker reloads /config/ and keeps the page in the preview.
    assert!(html.contains("href=\"/config/?range=7d&amp;frameUrl=%2Fshop%3Fpage%3D2\""));
    assert!(html.contains("<input type=\"hidden\" name=\"frameUrl\" value=\"/shop?page=2\">"));
    for heading in FIGURES_BEYOND_VIEWS {
        assert!(html.contains(&format!(">{heading}</h2>")), "{heading}");
    }

    // Another site's address is never framed.
    let elsewhere = harness
        .send(config_request(
            "?frameUrl=https%3A%2F%2Felsewhere.example%2F",
            &session,
        ))
        .await;
    assert!(elsewhere.text().contains("src=\"/\""));

    let wrong = harness.send(config_request("?range=year", &session)).await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    let html = wrong.text();
    assert!(html.contains("role=\"alert\""));
    assert!(
        html.contains("title=\"Preview of your site\""),
        "the rest still shows"
    );
}
