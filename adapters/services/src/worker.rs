//! The delivery worker: drains the outbox in the background of `vitrine serve`. It looks once
//! a second (or when woken), so deliveries leave within moments while the visitor's request
//! only writes the outbox row. After a restart it finds the entries left
//! in the outbox and carries on; an entry a crashed worker had claimed is retried when its
//! lease runs out.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::Notify;
use vitrine_core::forms::DeliveryService;

/// How often the worker looks at the outbox when nothing wakes it.
const POLL: Duration = Duration::from_secs(1);

/// A handle to wake the worker and to stop it.
#[derive(Clone, Default)]
pub struct DeliveryWorker {
    wake: Arc<Notify>,
    stop: Arc<Notify>,
}

impl DeliveryWorker {
    pub fn new() -> Self {
        Self::default()
    }

    /// Something was enqueued: look now rather than at the next poll.
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Ends [`run_deliveries`] after the round in progress.
    pub fn stop(&self) {
        self.stop.notify_one();
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as i64)
        .unwrap_or_default()
}

/// Runs delivery rounds until [`DeliveryWorker::stop`] is called. A round that found work
/// is followed at once by another, so a backlog drains without waiting for the poll.
pub async fn run_deliveries(
    service: Arc<DeliveryService>,
    worker: DeliveryWorker,
    poll: Option<Duration>,
) {
    let poll = poll.unwrap_or(POLL);
    loop {
        let busy = match service.run_due_by(&now_ms).await {
            Ok(round) => {
                if round.given_up > 0 {
                    tracing::error!(
                        given_up = round.given_up,
                        "deliveries failed for good; see the outbox's last_error"
                    );
                }
                if round.handled() > 0 {
                    tracing::info!(
                        delivered = round.delivered,
                        retried = round.retried,
                        "delivery round"
                    );
                }
                round.handled() > 0
            }
            Err(error) => {
                tracing::error!(%error, "the delivery outbox could not be read");
                false
            }
        };
        if busy {
            continue;
        }
        tokio::select! {
            () = worker.stop.notified() => return,
            () = worker.wake.notified() => {},
            () = tokio::time::sleep(poll) => {},
        }
    }
}
