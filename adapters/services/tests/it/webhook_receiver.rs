//! An axum webhook receiver that verifies Vitrine's signature scheme, answers 503 to the
//! first requests it is told to refuse, and records when each request came.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use vitrine_services::signature::{DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verify};

pub const SECRET: &str = "whsec-test-secret";

#[derive(Debug, Clone)]
pub struct Hit {
    pub at: Instant,
    pub status: u16,
    pub delivery: String,
    pub body: serde_json::Value,
}

#[derive(Clone, Default)]
pub struct Receiver {
    pub hits: Arc<Mutex<Vec<Hit>>>,
    pub refuse: Arc<AtomicUsize>,
}

impl Receiver {
    /// Listens on a free local port; the URL to post to.
    pub async fn start(refuse: usize) -> (Self, url::Url) {
        let receiver = Self::default();
        receiver.refuse.store(refuse, Ordering::SeqCst);
        let app = Router::new()
            .route("/hooks/vitrine", post(receive))
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hooks/vitrine", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (receiver, url.parse().unwrap())
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    pub fn accepted(&self) -> Vec<Hit> {
        self.hits()
            .into_iter()
            .filter(|hit| hit.status == 200)
            .collect()
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let timestamp: i64 = header(TIMESTAMP_HEADER).parse().unwrap_or_default();
    let signed = verify(
        SECRET.as_bytes(),
        timestamp,
        &body,
        &header(SIGNATURE_HEADER),
        now(),
    );
    let status = if !signed {
        StatusCode::UNAUTHORIZED
    } else if receiver
        .refuse
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok()
    {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    receiver.hits.lock().unwrap().push(Hit {
        at: Instant::now(),
        status: status.as_u16(),
        delivery: header(DELIVERY_HEADER),
        body: serde_json::from_slice(&body).unwrap_or_default(),
    });
    status
}
