//! The Redis adapters against a real Redis (`VITRINE_TEST_REDIS_URL`), each test under a
//! prefix of its own. Without the variable the tests print a notice and pass; with `CI=true`
//! they fail instead, so a missing service cannot turn the suite silently green.

use vitrine_redis::RedisStores;

const URL_VARIABLE: &str = "VITRINE_TEST_REDIS_URL";

async fn fresh() -> Option<RedisStores> {
    let url = match std::env::var(URL_VARIABLE) {
        Ok(url) if !url.trim().is_empty() => url,
        _ if std::env::var("CI").as_deref() == Ok("true") => panic!(
            "{URL_VARIABLE} is not set, but CI=true: the Redis tests must run in CI. Set it to \
             e.g. redis://127.0.0.1:6379"
        ),
        _ => {
            eprintln!("skipping a Redis test: {URL_VARIABLE} is not set");
            return None;
        }
    };
    let prefix = format!("vitrine-test:{}:", uuid::Uuid::new_v4().simple());
    Some(
        RedisStores::connect(&url, &prefix)
            .await
            .unwrap_or_else(|error| panic!("{URL_VARIABLE}: {error}")),
    )
}

mod key_store {
    vitrine_core::key_store_conformance!(match super::fresh().await {
        Some(stores) => stores.key_store(),
        None => return,
    });
}

mod rate_limiter {
    vitrine_core::rate_limiter_conformance!(match super::fresh().await {
        Some(stores) => stores.rate_limiter(),
        None => return,
    });
}

#[tokio::test]
async fn an_unreachable_redis_is_reported_with_its_address() {
    let error = RedisStores::connect("redis://127.0.0.1:1", "p:")
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("127.0.0.1:1 cannot be reached"),
        "{error}"
    );
}
