//! The Redis adapters against a real Redis (`VITRINE_TEST_REDIS_URL`), each test under a
//! prefix of its own. Without the variable the tests print a notice and pass; with `CI=true`
//! they fail instead, so a missing service cannot turn the suite silently green.

use vitrine_redis::RedisStores;

const URL_VARIABLE: &str = "VITRINE_TEST_REDIS_URL";

async fn fresh() -> Option<RedisStores> {
    let prefix = format!("vitrine-test:{}:", uuid::Uuid::new_v4().simple());
    connect(&prefix).await
}

/// Stores under `prefix`: two calls with one prefix are two servers sharing one Redis.
async fn connect(prefix: &str) -> Option<RedisStores> {
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
    Some(
        RedisStores::connect(&url, prefix)
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

/// The card-testing defence on two servers sharing one Redis: failed payments counted by
/// one server refuse the next attempt on the other, so a script cannot spread its card
/// tries over the servers behind a load balancer.
#[tokio::test]
async fn failed_payments_counted_by_one_server_refuse_the_payer_on_another() {
    use std::sync::Arc;
    use vitrine_core::cart::Timestamp;
    use vitrine_core::checkout::{
        AdmitError, CardTestingGuard, FailedPaymentLimits, Payer, PayerPart,
    };

    let prefix = format!("vitrine-test:{}:", uuid::Uuid::new_v4().simple());
    let (Some(first), Some(second)) = (connect(&prefix).await, connect(&prefix).await) else {
        return;
    };
    let guard = |stores: RedisStores| {
        CardTestingGuard::new(
            Arc::new(stores.rate_limiter()),
            FailedPaymentLimits::default(),
        )
    };
    let (server_a, server_b) = (guard(first), guard(second));
    let now = Timestamp(1_795_269_600_000);
    let script = Payer {
        visitor: Some("crumb-1".into()),
        cart: Some("cart-1".into()),
        address: Some("192.0.2.7".into()),
    };
    for attempt in 0..5 {
        let server = if attempt % 2 == 0 {
            &server_a
        } else {
            &server_b
        };
        server.admit(&script, now).await.unwrap();
        server.record_failure(&script, now).await;
    }
    for server in [&server_a, &server_b] {
        match server.admit(&script, now).await {
            Err(AdmitError::Refused(refused)) => assert_eq!(refused.part, PayerPart::Visitor),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    let honest = Payer {
        visitor: Some("crumb-2".into()),
        cart: Some("cart-2".into()),
        address: Some("198.51.100.1".into()),
    };
    server_b.admit(&honest, now).await.unwrap();
}
