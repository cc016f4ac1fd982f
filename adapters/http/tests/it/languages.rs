//! Languages through the router: `/fr/...` pages in French with `<html lang>`, `hreflang`
//! alternates and the switcher, the sitemap's alternates, and the owner's multilingual calls
//! (settings, status, publishing languages, disconnecting the provider), owner only, with the
//! crumb on changes, reflected in the published pages at once.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use vitrine_core::languages::{LanguageSettings, LanguageTag, SiteTranslation};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::{Block, BlockContent, Layout};

use crate::support::{Answer, fetch, owner_router, send, site};

const CRUMB: &str = "test-crumb";
const TOKEN: &str = "owner-secret";

fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

async fn multilingual_app(provider: Option<&str>) -> Router {
    let mut site = site();
    let french = SiteTranslation::new(
        LanguageTag::parse("fr-FR").unwrap(),
        "Français",
        None,
        texts(&[
            ("Journal", "Carnet"),
            ("Questions", "Questions fréquentes"),
            ("Do you ship abroad?", "Livrez-vous à l'étranger ?"),
            ("Post first", "Premier billet"),
        ]),
        texts(&[
            ("header.skipLink", "Aller au contenu"),
            ("header.cart", "Panier"),
            ("languages.label", "Langue"),
        ]),
    )
    .unwrap();
    // The FAQ page ends with a language switcher block.
    let faq = site
        .collections
        .iter_mut()
        .find(|collection| collection.slug.as_str() == "faq")
        .unwrap();
    let mut blocks: Vec<Block> = faq.body.layout.blocks().cloned().collect();
    blocks.push(Block {
        id: "faq-languages".to_owned().try_into().unwrap(),
        content: BlockContent::LanguageSwitcher,
    });
    faq.body.layout = Layout::stacked(blocks).unwrap();
    site.settings.languages = LanguageSettings {
        default_name: "English".into(),
        translations: vec![french],
        provider: provider.map(str::to_owned),
    };
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    owner_router(repository, TOKEN)
}

fn owner(method: Method, path: &str, body: &str, crumb: bool) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("content-type", "application/json");
    if crumb {
        request = request
            .header("cookie", format!("crumb={CRUMB}"))
            .header("x-csrf-token", CRUMB);
    }
    request.body(Body::from(body.to_owned())).unwrap()
}

async fn publish(router: &Router, body: &str) -> Answer {
    send(
        router,
        owner(Method::PUT, "/api/multilingual/languages", body, true),
    )
    .await
}

#[tokio::test]
async fn a_french_page_is_french_and_links_to_its_english_copy() {
    let router = multilingual_app(None).await;
    let page = fetch(&router, "/fr/faq").await;
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    assert!(html.contains("<html lang=\"fr-FR\">"), "{html}");
    assert!(
        html.contains("Livrez-vous à l&#39;étranger ?")
            || html.contains("Livrez-vous à l'étranger ?"),
        "{html}"
    );
    assert!(
        html.contains("<title>Questions fréquentes — Fixture Shop</title>"),
        "{html}"
    );
    assert!(html.contains(">Aller au contenu</a>"), "{html}");
    for alternate in [
        r#"<link rel="alternate" hreflang="en-US" href="https://shop.example/faq">"#,
        r#"<link rel="alternate" hreflang="fr-FR" href="https://shop.example/fr/faq">"#,
        r#"<link rel="alternate" hreflang="x-default" href="https://shop.example/faq">"#,
    ] {
        assert!(html.contains(alternate), "{alternate}: {html}");
    }
    // The switcher names each language in itself and marks the current one; the menu stays
    // inside the language.
    assert!(
        html.contains(r#"<nav class="language-switcher" aria-label="Langue""#),
        "{html}"
    );
    assert!(
        html.contains(
            r#"href="/fr/faq" hreflang="fr-FR" lang="fr-FR" aria-current="true">Français</a>"#
        ),
        "{html}"
    );
    assert!(
        html.contains(r#"href="/faq" hreflang="en-US" lang="en-US">English</a>"#),
        "{html}"
    );
    assert!(html.contains(r#"href="/fr/journal">Carnet</a>"#), "{html}");
    // The switcher block lists the same copies, without a second language landmark.
    assert!(html.contains("language-switcher--block"), "{html}");
    assert!(
        html.contains(r#"<p class="language-switcher__label">Langue</p>"#),
        "{html}"
    );
    assert_eq!(
        html.matches(r#"aria-current="true">Français</a>"#).count(),
        2,
        "{html}"
    );

    let english = fetch(&router, "/faq").await.text();
    assert!(english.contains("<html lang=\"en-US\">"));
    assert!(english.contains("Do you ship abroad?"));
    assert!(
        english.contains(
            r#"<link rel="alternate" hreflang="fr-FR" href="https://shop.example/fr/faq">"#
        )
    );
}

#[tokio::test]
async fn french_lists_link_to_french_items_and_dates_are_french() {
    let router = multilingual_app(None).await;
    let html = fetch(&router, "/fr/journal").await.text();
    assert!(html.contains(r#"href="/fr/journal/first""#), "{html}");
    assert!(html.contains("Premier billet"), "{html}");
    // 1_600_000_000_000 ms is 13 September 2020.
    assert!(html.contains("13 septembre 2020"), "{html}");
    assert_eq!(fetch(&router, "/fr").await.status, StatusCode::OK);
    assert_eq!(
        fetch(&router, "/fr/nowhere").await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        fetch(&router, "/de/faq").await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_sitemap_lists_every_language_with_alternates() {
    let router = multilingual_app(None).await;
    let xml = fetch(&router, "/sitemap.xml").await.text();
    assert!(
        xml.contains(r#"xmlns:xhtml="http://www.w3.org/1999/xhtml""#),
        "{xml}"
    );
    assert!(
        xml.contains("<loc>https://shop.example/fr/faq</loc>"),
        "{xml}"
    );
    assert!(
        xml.contains(
            r#"<xhtml:link rel="alternate" hreflang="x-default" href="https://shop.example/faq"/>"#
        ),
        "{xml}"
    );
    assert!(
        xml.contains(
            r#"<xhtml:link rel="alternate" hreflang="fr-FR" href="https://shop.example/fr/faq"/>"#
        ),
        "{xml}"
    );
}

#[tokio::test]
async fn only_the_owner_reads_the_settings_and_status() {
    let router = multilingual_app(Some("DeepL")).await;
    for path in ["/api/multilingual/settings", "/api/multilingual/status"] {
        assert_eq!(
            fetch(&router, path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let settings = send(
        &router,
        owner(Method::GET, "/api/multilingual/settings", "", false),
    )
    .await;
    assert_eq!(settings.status, StatusCode::OK);
    assert_eq!(
        settings.json(),
        serde_json::json!({
            "defaultLanguage": {"locale": "en-US", "name": "English", "pathPrefix": null, "published": true},
            "languages": [{"locale": "fr-FR", "name": "Français", "pathPrefix": "fr", "published": true}],
            "provider": {"name": "DeepL"},
        })
    );
    let status = send(
        &router,
        owner(Method::GET, "/api/multilingual/status", "", false),
    )
    .await;
    assert_eq!(status.status, StatusCode::OK);
    let french = &status.json()["languages"][0];
    assert_eq!(french["locale"], "fr-FR");
    assert_eq!(
        french["navigation"],
        serde_json::json!({"translated": 1, "total": 1})
    );
    assert_eq!(french["fixedTexts"]["translated"], 3);
}

#[tokio::test]
async fn unpublishing_a_language_takes_its_pages_down_at_once() {
    let router = multilingual_app(None).await;
    // Cached first.
    assert_eq!(fetch(&router, "/fr/faq").await.status, StatusCode::OK);
    assert!(fetch(&router, "/faq").await.text().contains("hreflang"));

    let refused = send(
        &router,
        owner(
            Method::PUT,
            "/api/multilingual/languages",
            r#"{"languages":[]}"#,
            false,
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    for (body, error) in [
        (
            "[]",
            "The body is {\"languages\": [language tags]}, the translations to publish, such as [\"fr-FR\"].",
        ),
        (
            r#"{"languages":["français"]}"#,
            "\"français\" is not a language tag such as en-US or fr-FR.",
        ),
        (
            r#"{"languages":["de-DE"]}"#,
            "The site has no translation into de-DE; its translations are: fr-FR.",
        ),
        (
            r#"{"languages":["fr-FR","fr-fr"]}"#,
            "fr-FR is listed twice.",
        ),
        (
            r#"{"languages":["en-US"]}"#,
            "en-US is the site's default language, which is always published; list only translations.",
        ),
    ] {
        let answer = publish(&router, body).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(answer.json()["error"], error, "{body}");
    }

    let answer = publish(&router, r#"{"languages":[]}"#).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.json()["languages"][0]["published"], false);
    assert_eq!(
        fetch(&router, "/fr/faq").await.status,
        StatusCode::NOT_FOUND
    );
    let english = fetch(&router, "/faq").await.text();
    assert!(
        !english.contains("hreflang") && !english.contains("language-switcher__link"),
        "{english}"
    );
    assert!(!fetch(&router, "/sitemap.xml").await.text().contains("/fr/"));

    assert_eq!(
        publish(&router, r#"{"languages":["fr-fr"]}"#).await.status,
        StatusCode::OK
    );
    assert_eq!(fetch(&router, "/fr/faq").await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_provider_is_disconnected_once() {
    let without = multilingual_app(None).await;
    let answer = send(
        &without,
        owner(Method::DELETE, "/api/multilingual/connection", "", true),
    )
    .await;
    assert_eq!(answer.status, StatusCode::CONFLICT);
    assert_eq!(
        answer.json()["error"],
        "No translation provider is connected."
    );

    let router = multilingual_app(Some("DeepL")).await;
    let no_crumb = send(
        &router,
        owner(Method::DELETE, "/api/multilingual/connection", "", false),
    )
    .await;
    assert_eq!(no_crumb.status, StatusCode::UNAUTHORIZED);
    let stranger = send(
        &router,
        Request::delete("/api/multilingual/connection")
            .header("cookie", format!("crumb={CRUMB}"))
            .header("x-csrf-token", CRUMB)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    let done = send(
        &router,
        owner(Method::DELETE, "/api/multilingual/connection", "", true),
    )
    .await;
    assert_eq!(done.status, StatusCode::NO_CONTENT);
    let settings = send(
        &router,
        owner(Method::GET, "/api/multilingual/settings", "", false),
    )
    .await;
    assert_eq!(settings.json()["provider"], serde_json::Value::Null);
    // The translations it made stay published.
    assert_eq!(fetch(&router, "/fr/faq").await.status, StatusCode::OK);
    let again = send(
        &router,
        owner(Method::DELETE, "/api/multilingual/connection", "", true),
    )
    .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
}

/// The core's list of the server's first path segments (links to them keep no language prefix,
/// no translation takes them) is the router's: a top-level route added to the router but not to
/// the list, or a listed segment no route serves any more, fails here.
#[test]
fn the_router_serves_exactly_the_server_route_segments_the_core_lists() {
    let routes = vitrine_http::server_routes();
    assert_eq!(
        vitrine_http::unlisted_segments(routes.paths()),
        (Vec::<&str>::new(), Vec::<&str>::new()),
        "add the new segment to SERVER_ROUTE_SEGMENTS, or remove the one no route serves"
    );
    for path in routes.paths() {
        assert!(!vitrine_core::languages::is_page_link(path), "{path}");
    }
    // The check sees a new top-level route, and a listed segment gone from the router.
    let mut grown = routes.paths().to_vec();
    grown.push("/gift-registry/{id}");
    assert_eq!(vitrine_http::unlisted_segments(&grown).0, ["gift-registry"]);
    let shrunk: Vec<&str> = routes
        .paths()
        .iter()
        .copied()
        .filter(|path| !path.starts_with("/healthz"))
        .collect();
    assert_eq!(vitrine_http::unlisted_segments(&shrunk).1, ["healthz"]);
}
