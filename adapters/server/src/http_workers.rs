//! Serves HTTP either on the main (multi-thread) runtime, the default, or on threads of its
//! own: one single-threaded tokio runtime each, with its own clone of the router, while the
//! main runtime accepts connections and runs the background work (outbox, census flushes,
//! renewals, database pools).
//!
//! Either way each connection is served by hyper's HTTP/1.1 connection, with a time limit on
//! reading a request's headers that also lets idle kept-alive connections go, and a graceful
//! shutdown that closes idle connections and waits for the requests in flight.
//!
//! A page served from the cache costs a few microseconds of work; on tokio's multi-thread
//! runtime part of a request's time goes to moving tasks and wake-ups between threads, which
//! threads of their own save. But a write waits on the database several times per request,
//! and pinned to one thread it waits behind that thread's other connections where the
//! multi-thread runtime lets an idle worker take it. Under the mixed visitor load the threads
//! of their own were slower (BENCHMARKS.md, "A mixed visitor load"), even when everything but
//! the cached pages was handed back to the multi-thread runtime; on cached pages they are a
//! quarter faster ("Cached pages before the router"). A storefront's checkout matters more than
//! its last page a second, so the multi-thread runtime is the default and the threads are a
//! choice (`--http-threads`) for sites that serve mostly cached pages.
//!
//! A connection handed to one thread stays there: its requests, their timers and the tasks they
//! spawn run on that thread. Connections are dealt round-robin from one listener rather than
//! through `SO_REUSEPORT` listeners, so a second server started on the same port still fails
//! with "address in use" instead of silently sharing the port, and the threads share the work
//! evenly however few connections there are.

use std::io;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::serve::Listener;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tower::ServiceExt;

/// How long a client has to send a request's headers, counted from when the server starts
/// reading them (on a kept-alive connection, from the last answer): a slow or silent client,
/// or an idle connection, is let go after it rather than held open forever. Longer than the
/// 60 s a proxy or load balancer in front commonly keeps an idle connection to its backend, so
/// the server is never the one to close a connection the proxy is about to reuse (a request
/// sent as it closes would fail). A request's own time limit starts once its headers are in
/// (the router's time-out).
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(75);

/// Accepted connections waiting for their thread; the acceptor waits when a thread falls this
/// far behind, which leaves further connections in the kernel's backlog.
const HANDOFF_QUEUE: usize = 256;

/// The HTTP threads asked for: none (serve on the main runtime) when `requested` is absent,
/// one per core when it is zero, else that many.
pub fn thread_count(requested: Option<usize>) -> Option<NonZeroUsize> {
    let requested = requested?;
    NonZeroUsize::new(requested)
        .or_else(|| std::thread::available_parallelism().ok())
        .or(Some(NonZeroUsize::MIN))
}

/// Serves `app` on connections from `listener` until `shutdown` completes, then stops
/// accepting and waits for the requests in flight, as `axum::serve` with a graceful shutdown
/// does: on the calling runtime when `threads` is `None`, else on that many HTTP threads.
/// Those threads' runtimes stay up until [`HttpThreads::close`]: a database connection a
/// request opened belongs to its thread's runtime, and the work after serving (the last census
/// flush, closing the pools) may still use it.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    threads: Option<NonZeroUsize>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<HttpThreads> {
    let Some(threads) = threads else {
        serve_connections(listener, app, shutdown).await;
        return Ok(HttpThreads::none());
    };
    let local = listener
        .local_addr()
        .context("could not read the address the server listens on")?;
    let (stop, stopped) = watch::channel(false);
    let (release, released) = watch::channel(false);
    let (served, mut finished) = mpsc::channel(threads.get());
    let mut queues = Vec::with_capacity(threads.get());
    let mut workers = Vec::with_capacity(threads.get());
    for index in 0..threads.get() {
        let (queue, incoming) = mpsc::channel(HANDOFF_QUEUE);
        let worker = Worker {
            index,
            handed: Handed { incoming, local },
            stopped: stopped.clone(),
            served: served.clone(),
            released: released.clone(),
        };
        workers.push(worker.start(app.clone())?);
        queues.push(queue);
    }
    drop(served);
    let threads = HttpThreads { release, workers };
    accept_until(&listener, &queues, shutdown).await;
    drop(listener);
    drop(queues);
    // Every thread finishes its requests in flight; a thread that ended early counts too, since
    // its sender is gone.
    let _ = stop.send(true);
    while finished.recv().await.is_some() {}
    Ok(threads)
}

/// Serves `app` over HTTP/1.1 on the connections `listener` brings until `shutdown` completes,
/// then stops accepting, closes idle connections and waits for the requests in flight: what
/// `axum::serve` does, plus the header read time-out it offers no way to set. HTTP/1.1 only, as
/// axum is built here (a TLS proxy in front speaks HTTP/2 to browsers).
async fn serve_connections<L>(mut listener: L, app: Router, shutdown: impl Future<Output = ()>)
where
    L: Listener<Io = TcpStream, Addr = SocketAddr>,
{
    let connections = GracefulShutdown::new();
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        // Small answers go out at once rather than waiting for more to send.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY on a connection");
        }
        // The peer's address is what the rate limits key on (unless proxies are trusted).
        let service = app
            .clone()
            .map_request(move |mut request: Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = connections
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "a connection ended with an error");
            }
        });
    }
    drop(listener);
    connections.shutdown().await;
}

/// The HTTP threads after serving, their runtimes still driving what was opened on them.
pub struct HttpThreads {
    release: watch::Sender<bool>,
    workers: Vec<JoinHandle<()>>,
}

impl HttpThreads {
    /// No threads: requests were served on the main runtime.
    fn none() -> Self {
        Self {
            release: watch::channel(false).0,
            workers: Vec::new(),
        }
    }

    /// Ends the threads and their runtimes, and waits for them.
    pub async fn close(mut self) {
        let _ = self.release.send(true);
        let workers = std::mem::take(&mut self.workers);
        let joined = tokio::task::spawn_blocking(move || {
            for worker in workers {
                if worker.join().is_err() {
                    tracing::error!("an HTTP thread panicked");
                }
            }
        })
        .await;
        if let Err(error) = joined {
            tracing::error!(%error, "waiting for the HTTP threads failed");
        }
    }
}

impl Drop for HttpThreads {
    /// Threads left by an early return end on their own.
    fn drop(&mut self) {
        let _ = self.release.send(true);
    }
}

/// One HTTP thread before it starts.
struct Worker {
    index: usize,
    handed: Handed,
    /// Turns true when the thread stops taking requests.
    stopped: watch::Receiver<bool>,
    /// Dropped once the thread's requests in flight are answered.
    served: mpsc::Sender<()>,
    /// Turns true when the thread may end.
    released: watch::Receiver<bool>,
}

impl Worker {
    /// Starts the thread: a current-thread runtime serving what its listener brings.
    fn start(self, app: Router) -> anyhow::Result<JoinHandle<()>> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("could not start an HTTP thread's runtime")?;
        let Self {
            index,
            handed,
            mut stopped,
            served,
            mut released,
        } = self;
        std::thread::Builder::new()
            .name(format!("vitrine-http-{index}"))
            .spawn(move || {
                runtime.block_on(async move {
                    serve_connections(handed, app, async move {
                        let _ = stopped.wait_for(|stop| *stop).await;
                    })
                    .await;
                    drop(served);
                    let _ = released.wait_for(|release| *release).await;
                })
            })
            .context("could not start an HTTP thread")
    }
}

/// Accepts connections and deals them to the threads in turn until `shutdown` completes.
async fn accept_until(
    listener: &TcpListener,
    queues: &[mpsc::Sender<(std::net::TcpStream, SocketAddr)>],
    shutdown: impl Future<Output = ()>,
) {
    let mut shutdown = std::pin::pin!(shutdown);
    let mut turn = 0;
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(connection) => connection,
            Err(error) => {
                wait_after_accept_error(error).await;
                continue;
            }
        };
        // The stream leaves this runtime's reactor and joins its thread's.
        let stream = match stream.into_std() {
            Ok(stream) => stream,
            Err(error) => {
                tracing::warn!(%error, "could not hand a connection to an HTTP thread");
                continue;
            }
        };
        // A thread far behind makes the acceptor wait, but never past the shutdown signal.
        let sent = tokio::select! {
            () = &mut shutdown => return,
            sent = queues[turn].send((stream, peer)) => sent,
        };
        if sent.is_err() {
            // A thread that ended early has been logged as it ended; its connection is dropped.
            tracing::error!(
                thread = turn,
                "an HTTP thread is gone; a connection was dropped"
            );
        }
        turn = (turn + 1) % queues.len();
    }
}

/// An accept error is a client that left before it was accepted (go on at once) or a resource
/// running out, such as file descriptors (wait a moment, as `axum::serve` does).
async fn wait_after_accept_error(error: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(%error, "accepting a connection failed; trying again in a second");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// The connections the acceptor hands to one HTTP thread, as a listener for `axum::serve`.
struct Handed {
    incoming: mpsc::Receiver<(std::net::TcpStream, SocketAddr)>,
    local: SocketAddr,
}

impl Listener for Handed {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        loop {
            let Some((stream, peer)) = self.incoming.recv().await else {
                // The acceptor has stopped: the graceful shutdown ends serving from here.
                return std::future::pending().await;
            };
            match TcpStream::from_std(stream) {
                Ok(stream) => return (stream, peer),
                Err(error) => tracing::warn!(%error, "an HTTP thread could not take a connection"),
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        Ok(self.local)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// A router answering each request with the name of the thread that served it and the
    /// peer address it saw.
    fn naming_router() -> Router {
        Router::new().route(
            "/",
            get(
                |axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<SocketAddr>| async move {
                    let thread = std::thread::current();
                    format!("{} {}", thread.name().unwrap_or("?"), peer.ip())
                },
            ),
        )
    }

    async fn get_root(address: SocketAddr) -> String {
        let mut connection = TcpStream::connect(address).await.unwrap();
        connection
            .write_all(b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut answer = String::new();
        connection.read_to_string(&mut answer).await.unwrap();
        answer
    }

    #[tokio::test]
    async fn connections_are_dealt_to_every_thread_in_turn_with_their_peer_address() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let threads = NonZeroUsize::new(2);
        let server = tokio::spawn(serve(listener, naming_router(), threads, async {
            let _ = stopped.await;
        }));
        let mut bodies = Vec::new();
        for _ in 0..4 {
            let answer = get_root(address).await;
            bodies.push(answer.rsplit("\r\n\r\n").next().unwrap().to_owned());
        }
        assert_eq!(
            bodies,
            [
                "vitrine-http-0 127.0.0.1",
                "vitrine-http-1 127.0.0.1",
                "vitrine-http-0 127.0.0.1",
                "vitrine-http-1 127.0.0.1",
            ]
        );
        stop.send(()).unwrap();
        let threads = server.await.unwrap().unwrap();
        // The listener is closed once the server has stopped.
        assert!(TcpStream::connect(address).await.is_err());
        threads.close().await;
    }

    /// A request in flight when the shutdown signal comes is answered, and only then does
    /// `serve` return, on the main runtime (`None`) as on threads of their own.
    async fn a_request_in_flight_at_shutdown_is_answered_first(threads: Option<NonZeroUsize>) {
        let started = Arc::new(tokio::sync::Notify::new());
        let finish = Arc::new(tokio::sync::Notify::new());
        let (in_handler, release) = (started.clone(), finish.clone());
        let app = Router::new().route(
            "/",
            get(move || {
                let (in_handler, release) = (in_handler.clone(), release.clone());
                async move {
                    in_handler.notify_one();
                    release.notified().await;
                    "finished"
                }
            }),
        );
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, app, threads, async {
            let _ = stopped.await;
        }));
        let request = tokio::spawn(get_root(address));
        started.notified().await;
        stop.send(()).unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!server.is_finished(), "the server waits for its request");
        finish.notify_one();
        let answer = request.await.unwrap();
        assert!(answer.ends_with("finished"), "{answer}");
        server.await.unwrap().unwrap().close().await;
        assert!(TcpStream::connect(address).await.is_err());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_request_in_flight_at_shutdown_is_answered_before_the_main_runtime_stops() {
        a_request_in_flight_at_shutdown_is_answered_first(None).await;
    }

    #[tokio::test]
    async fn a_request_in_flight_at_shutdown_is_answered_before_the_threads_stop() {
        a_request_in_flight_at_shutdown_is_answered_first(Some(NonZeroUsize::MIN)).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn by_default_the_main_runtime_serves_with_the_peer_address() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, naming_router(), None, async {
            let _ = stopped.await;
        }));
        let answer = get_root(address).await;
        let body = answer.rsplit("\r\n\r\n").next().unwrap();
        let worker = tokio::spawn(async { std::thread::current().name().map(str::to_owned) })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(body, format!("{worker} 127.0.0.1"));
        stop.send(()).unwrap();
        server.await.unwrap().unwrap().close().await;
    }

    /// Reads until the server closes the connection.
    async fn until_closed(connection: &mut TcpStream) -> String {
        let mut answer = Vec::new();
        connection.read_to_end(&mut answer).await.unwrap();
        String::from_utf8(answer).unwrap()
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_slow_with_its_headers_or_idle_is_let_go_after_the_header_time_out() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let _server = tokio::spawn(serve(
            listener,
            naming_router(),
            None,
            std::future::pending(),
        ));
        let mut idle = TcpStream::connect(address).await.unwrap();
        idle.write_all(b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
            .await
            .unwrap();
        let mut slow = TcpStream::connect(address).await.unwrap();
        slow.write_all(b"GET / HTTP/1.1\r\nHost: te").await.unwrap();
        let started = tokio::time::Instant::now();

        let (answered, cut) = tokio::time::timeout(HEADER_READ_TIMEOUT * 2, async {
            tokio::join!(until_closed(&mut idle), until_closed(&mut slow))
        })
        .await
        .expect("the server let both connections go");

        assert!(answered.starts_with("HTTP/1.1 200 OK"), "{answered}");
        assert!(!cut.contains("200 OK"), "{cut}");
        let waited = started.elapsed();
        assert!(
            (HEADER_READ_TIMEOUT..HEADER_READ_TIMEOUT + Duration::from_secs(1)).contains(&waited),
            "closed after {waited:?}"
        );
    }

    #[test]
    fn no_thread_count_means_the_main_runtime_and_zero_one_thread_per_core() {
        let cores = std::thread::available_parallelism().unwrap();
        assert_eq!(thread_count(None), None);
        assert_eq!(thread_count(Some(0)), Some(cores));
        assert_eq!(thread_count(Some(3)), NonZeroUsize::new(3));
    }
}
