//! Group commit for form submissions. Saves that arrive while the database is busy wait in a
//! queue; a writer task takes everything waiting (up to a bound) and writes it in one
//! transaction (how is the store's business: `forms.rs`), so a single commit (one sync) makes
//! a whole batch durable. Every caller is answered only after that commit returns.
//!
//! There is no timer: a lone submission is written at once, and batches grow by themselves
//! exactly when submissions arrive faster than the database commits.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use tokio::sync::{mpsc, oneshot};
use vitrine_core::forms::{NewSubmission, SaveOutcome, SubmissionKey};
use vitrine_core::ports::RepositoryError;

/// How the SQL form store writes submissions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmissionWrites {
    /// Concurrent submissions share transactions, at most `max_batch` to one.
    Grouped { max_batch: usize },
    /// One transaction per submission, straight from the connection pool: the naive way,
    /// kept as the benchmark's baseline.
    PerSubmission,
}

impl Default for SubmissionWrites {
    fn default() -> Self {
        Self::Grouped { max_batch: 256 }
    }
}

/// One save, owned so it can wait in the queue.
#[derive(Debug)]
pub(crate) struct SaveRequest {
    pub key: SubmissionKey,
    pub fingerprint: String,
    pub submission: NewSubmission,
    pub now: i64,
}

/// A save waiting for its batch, with where to send its answer.
pub(crate) struct Pending {
    pub request: SaveRequest,
    pub reply: oneshot::Sender<Result<SaveOutcome, RepositoryError>>,
}

/// How many saves may wait before callers wait to join the queue.
const QUEUE: usize = 4096;

type BatchWriter =
    Arc<dyn Fn(Vec<Pending>) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// The queue in front of the writer tasks, which start with the first save (a runtime is
/// certain to exist then).
pub(crate) struct GroupCommitter {
    max_batch: usize,
    writers: usize,
    write: BatchWriter,
    sender: OnceLock<mpsc::Sender<Pending>>,
}

impl GroupCommitter {
    /// `write` stores one batch and answers every caller in it; `writers` batches may be
    /// written at once (one for SQLite, which writes one transaction at a time; a few for
    /// PostgreSQL, so one batch's round trips overlap another's).
    pub(crate) fn new<F, Fut>(max_batch: usize, writers: usize, write: F) -> Self
    where
        F: Fn(Vec<Pending>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        Self {
            max_batch: max_batch.max(1),
            writers: writers.max(1),
            write: Arc::new(move |batch| Box::pin(write(batch))),
            sender: OnceLock::new(),
        }
    }

    pub(crate) async fn save(&self, request: SaveRequest) -> Result<SaveOutcome, RepositoryError> {
        let sender = self.sender.get_or_init(|| self.start());
        let (reply, answer) = oneshot::channel();
        let gone = || RepositoryError::Unavailable("the submission writer stopped".into());
        sender
            .send(Pending { request, reply })
            .await
            .map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    fn start(&self) -> mpsc::Sender<Pending> {
        let (sender, receiver) = mpsc::channel::<Pending>(QUEUE);
        let receiver = Arc::new(tokio::sync::Mutex::new(receiver));
        for _ in 0..self.writers {
            let (max_batch, write) = (self.max_batch, self.write.clone());
            let receiver = receiver.clone();
            tokio::spawn(async move {
                let mut batch = Vec::with_capacity(max_batch);
                loop {
                    // One writer gathers at a time; it lets go of the queue before writing.
                    let received = receiver.lock().await.recv_many(&mut batch, max_batch).await;
                    // Zero when every store holding the queue is dropped.
                    if received == 0 {
                        break;
                    }
                    write(std::mem::take(&mut batch)).await;
                }
            });
        }
        sender
    }
}
