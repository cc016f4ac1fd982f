//! Two `vitrine serve` processes on one PostgreSQL database and one Redis.

use crate::http::Visitor;
use crate::server::{NO_LIMITS, Server, run};
use crate::services::{Schema, redis_url};

/// Both servers, sharing the schema and a Redis prefix of this test's own.
struct Pair {
    a: Server,
    b: Server,
    schema: Schema,
    _data: tempfile::TempDir,
}

/// `limits` as `--form-limits` takes them.
async fn pair(limits: &str) -> Option<Pair> {
    let redis = redis_url()?;
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
    let prefix = format!("vitrine-test:{}:", uuid::Uuid::new_v4().simple());
    let args = [
        "--database-url",
        &schema.url,
        "--redis-url",
        &redis,
        "--redis-prefix",
        &prefix,
        "--form-limits",
        limits,
    ];
    // One after the other, so only the first runs the (already applied) migrations' checks
    // while the other waits.
    let a = Server::start(data.path(), &args);
    let b = Server::start(data.path(), &args);
    Some(Pair {
        a,
        b,
        schema,
        _data: data,
    })
}

async fn stored_messages(schema: &Schema) -> Vec<String> {
    let database = vitrine_sql::connect(&schema.url).await.unwrap();
    let rows = database.form_store().list().await.unwrap();
    database.close().await;
    rows.into_iter().map(|row| row.values_json).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_issued_by_one_server_is_accepted_exactly_once_across_both() {
    let Some(pair) = pair(NO_LIMITS).await else {
        return;
    };
    let visitor = Visitor::new(1);

    // Issued by A, used at B.
    let key = visitor.key(&pair.a.address).await.unwrap();
    assert_eq!(
        visitor
            .submit(&pair.b.address, &key, "first")
            .await
            .unwrap(),
        200,
        "B accepts a key A issued: {}",
        pair.b.log()
    );
    // The same submission again, at A: the first answer, nothing new stored.
    assert_eq!(
        visitor
            .submit(&pair.a.address, &key, "first")
            .await
            .unwrap(),
        200
    );
    // Another payload under the spent key, at either server: refused.
    assert_eq!(
        visitor
            .submit(&pair.a.address, &key, "second")
            .await
            .unwrap(),
        400
    );
    assert_eq!(
        visitor
            .submit(&pair.b.address, &key, "second")
            .await
            .unwrap(),
        400
    );

    // One fresh key raced at both servers with different payloads: exactly one wins.
    let mut winners = 0;
    for round in 0..10 {
        let key = visitor.key(&pair.b.address).await.unwrap();
        let (message_a, message_b) = (format!("race {round} a"), format!("race {round} b"));
        let (at_a, at_b) = tokio::join!(
            visitor.submit(&pair.a.address, &key, &message_a),
            visitor.submit(&pair.b.address, &key, &message_b),
        );
        let statuses = [at_a.unwrap(), at_b.unwrap()];
        assert!(
            statuses.contains(&200) && statuses.contains(&400),
            "one server stores, the other refuses the spent key: {statuses:?}"
        );
        winners += 1;
    }
    assert_eq!(winners, 10);

    let stored = stored_messages(&pair.schema).await;
    assert_eq!(
        stored
            .iter()
            .filter(|json| json.contains(r#""first""#))
            .count(),
        1
    );
    assert!(!stored.iter().any(|json| json.contains(r#""second""#)));
    for round in 0..10 {
        let both = stored
            .iter()
            .filter(|json| json.contains(&format!("race {round} ")))
            .count();
        assert_eq!(both, 1, "round {round} stored exactly one submission");
    }
    assert_eq!(stored.len(), 11);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_is_shared_by_both_servers() {
    let Some(pair) = pair("visitor=10").await else {
        return;
    };
    let visitor = Visitor::new(2);
    // 10 submissions a minute per visitor, sent alternately to A and B.
    let minute = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
            / 60
    };
    let started_in = minute();
    let mut statuses = Vec::new();
    for n in 0..14 {
        let (issuer, receiver) = if n % 2 == 0 {
            (&pair.a, &pair.b)
        } else {
            (&pair.b, &pair.a)
        };
        let key = visitor.key(&issuer.address).await.unwrap();
        statuses.push(
            visitor
                .submit(&receiver.address, &key, &format!("n{n}"))
                .await
                .unwrap(),
        );
    }
    let accepted = statuses.iter().filter(|status| **status == 200).count();
    let limited = statuses.iter().filter(|status| **status == 429).count();
    assert_eq!(accepted + limited, 14, "{statuses:?}");
    // A new minute starts a new window; only then may more than 10 pass.
    if minute() == started_in {
        assert_eq!(
            (accepted, limited),
            (10, 4),
            "both servers count against one limit of 10: {statuses:?}"
        );
    }
    // Another visitor is not limited by the first one's count.
    let other = Visitor::new(3);
    let key = other.key(&pair.b.address).await.unwrap();
    assert_eq!(
        other.submit(&pair.a.address, &key, "other").await.unwrap(),
        200
    );
}
