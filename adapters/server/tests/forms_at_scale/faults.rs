//! Fault injection: a server whose PostgreSQL or Redis goes away, slows down or restarts
//! under it. Pages keep serving from the cache, a write that cannot be stored answers 503
//! with the spec's text and is never acknowledged, nothing panics, and the server recovers
//! by itself once the service is back.

use std::time::{Duration, Instant};

use crate::http::{Visitor, get};
use crate::proxy::FaultProxy;
use crate::server::{NO_LIMITS, Server, run};
use crate::services::{Schema, redis_url};

/// The spec's text for a 503 (000 s8), as the server answers it.
const UNAVAILABLE: &str = "This service is temporarily unavailable. Please try again later.";
/// How long a server may take to notice a service is back.
const RECOVERY: Duration = Duration::from_secs(20);

/// `url` with its `host:port` swapped for the proxy's address.
fn through(url: &str, proxy: &FaultProxy) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (credentials, rest) = rest.rsplit_once('@').map_or(("", rest), |(c, r)| (c, r));
    let path_start = rest.find(['/', '?']).unwrap_or(rest.len());
    let at = if credentials.is_empty() { "" } else { "@" };
    format!(
        "{scheme}://{credentials}{at}{}{}",
        proxy.address,
        &rest[path_start..]
    )
}

/// `host:port` of a service URL.
fn upstream(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    rest[..rest.find(['/', '?']).unwrap_or(rest.len())].to_owned()
}

fn assert_no_panic(server: &Server) {
    let log = server.log();
    assert!(!log.contains("panicked"), "the server panicked: {log}");
}

/// Submits until one is stored, within [`RECOVERY`]: how a visitor's retry meets a server
/// that has just got its database back. Every answer on the way is a 200 or a 503.
async fn submit_until_stored(server: &Server, visitor: &Visitor, message: &str) {
    let deadline = Instant::now() + RECOVERY;
    loop {
        let answer = match visitor.key(&server.address).await {
            Ok(key) => visitor.submit_answer(&server.address, &key, message).await,
            Err(error) => Err(error),
        };
        match answer {
            Ok((200, _)) => return,
            Ok((503, body)) => assert!(body.contains(UNAVAILABLE), "{body}"),
            Ok((status, body)) => panic!("answered {status} while recovering: {body}"),
            Err(error) => assert!(
                error.to_string().contains("503"),
                "no answer while recovering: {error}"
            ),
        }
        assert!(
            Instant::now() < deadline,
            "not recovered after {RECOVERY:?}: {}",
            server.log()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

async fn stored_messages(schema: &Schema) -> Vec<String> {
    let database = vitrine_sql::connect(&schema.url).await.unwrap();
    let rows = database.form_store().list().await.unwrap();
    database.close().await;
    rows.into_iter().map(|row| row.values_json).collect()
}

/// A server on a fresh schema of the test PostgreSQL, reached through a fault proxy.
async fn server_behind_a_proxy() -> Option<(Server, FaultProxy, Schema, tempfile::TempDir)> {
    let schema = Schema::fresh().await?;
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap().to_owned();
    run(&[
        "import",
        "--demo",
        "--database-url",
        &schema.url,
        "--data-dir",
        &data_dir,
    ]);
    let proxy = FaultProxy::start(&upstream(&schema.url)).await;
    let database_url = through(&schema.url, &proxy);
    let server = Server::start(
        data.path(),
        &["--database-url", &database_url, "--form-limits", NO_LIMITS],
    );
    Some((server, proxy, schema, data))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_serve_from_the_cache_and_writes_answer_503_while_postgres_is_down() {
    let Some((server, proxy, schema, _data)) = server_behind_a_proxy().await else {
        return;
    };
    let visitor = Visitor::new(11);
    let (status, home) = get(&server.address, "/").await.unwrap();
    assert_eq!(status, 200);
    submit_until_stored(&server, &visitor, "before the outage").await;

    proxy.cut();
    for _ in 0..5 {
        let (status, page) = get(&server.address, "/").await.unwrap();
        assert_eq!(status, 200, "the cached home page is served: {page}");
        assert_eq!(page, home);
    }
    let key = visitor.key(&server.address).await.unwrap();
    let (status, body) = visitor
        .submit_answer(&server.address, &key, "during the outage")
        .await
        .unwrap();
    assert_eq!(status, 503, "{body}");
    assert!(body.contains(UNAVAILABLE), "{body}");

    proxy.restore();
    submit_until_stored(&server, &visitor, "after the outage").await;
    assert_no_panic(&server);

    let stored = stored_messages(&schema).await;
    assert!(stored.iter().any(|json| json.contains("before the outage")));
    assert!(stored.iter().any(|json| json.contains("after the outage")));
    assert!(
        !stored.iter().any(|json| json.contains("during the outage")),
        "a submission answered 503 was not stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgres_restart_resets_the_pool_and_the_server_recovers_by_itself() {
    let Some((server, proxy, schema, _data)) = server_behind_a_proxy().await else {
        return;
    };
    let visitor = Visitor::new(12);
    submit_until_stored(&server, &visitor, "first").await;
    for round in 0..3 {
        proxy.reset_connections();
        submit_until_stored(&server, &visitor, &format!("after restart {round}")).await;
    }
    assert_no_panic(&server);
    let stored = stored_messages(&schema).await;
    for round in 0..3 {
        let message = format!("after restart {round}");
        assert_eq!(
            stored.iter().filter(|json| json.contains(&message)).count(),
            1,
            "each acknowledged submission is stored once"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_database_slows_writes_but_loses_none() {
    let Some((server, proxy, schema, _data)) = server_behind_a_proxy().await else {
        return;
    };
    let visitor = Visitor::new(13);
    proxy.set_latency(Duration::from_millis(150));
    let mut acknowledged = Vec::new();
    for n in 0..5 {
        let message = format!("slow {n}");
        let key = visitor.key(&server.address).await.unwrap();
        let (status, body) = visitor
            .submit_answer(&server.address, &key, &message)
            .await
            .unwrap();
        assert_eq!(status, 200, "{body}");
        acknowledged.push(message);
    }
    proxy.set_latency(Duration::ZERO);
    assert_no_panic(&server);
    let stored = stored_messages(&schema).await;
    for message in acknowledged {
        assert!(
            stored.iter().any(|json| json.contains(&message)),
            "{message}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_answers_503_for_keys_keeps_pages_and_recovers() {
    let Some(redis) = redis_url() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let proxy = FaultProxy::start(&upstream(&redis)).await;
    let prefix = format!("vitrine-test:{}:", uuid::Uuid::new_v4().simple());
    let server = Server::start(
        data.path(),
        &[
            "--redis-url",
            &through(&redis, &proxy),
            "--redis-prefix",
            &prefix,
            "--form-limits",
            NO_LIMITS,
        ],
    );
    let visitor = Visitor::new(14);
    submit_until_stored(&server, &visitor, "before").await;

    proxy.cut();
    let (status, _) = get(&server.address, "/").await.unwrap();
    assert_eq!(status, 200, "pages do not need Redis");
    let answer = visitor.key(&server.address).await;
    let error = answer.expect_err("no key is issued while Redis is down");
    assert!(error.to_string().contains("no key: 503"), "{error}");
    assert!(
        error
            .to_string()
            .contains("Could not get a form submission key, please try again later."),
        "{error}"
    );

    proxy.restore();
    submit_until_stored(&server, &visitor, "after").await;
    assert_no_panic(&server);
}
