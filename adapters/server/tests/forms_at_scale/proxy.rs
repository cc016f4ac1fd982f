//! A TCP proxy the tests control, put between a server and PostgreSQL or Redis, to cut the
//! line, slow it down, or bring it back while the server runs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// What the proxy does to the next bytes and connections.
#[derive(Debug, Default)]
struct Faults {
    /// New connections are closed at once and open ones are cut: the service is down.
    down: bool,
    /// Added before each chunk is passed on, in either direction.
    latency: Duration,
    /// The tasks carrying open connections, so cutting the line can end them all.
    connections: Vec<JoinHandle<()>>,
}

pub struct FaultProxy {
    /// `127.0.0.1:PORT`, where the server under test connects.
    pub address: String,
    faults: Arc<Mutex<Faults>>,
    accept: JoinHandle<()>,
}

impl FaultProxy {
    /// A proxy on a free port that forwards every connection to `upstream`.
    pub async fn start(upstream: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let faults = Arc::new(Mutex::new(Faults::default()));
        let upstream = upstream.to_owned();
        let accept_faults = faults.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if accept_faults.lock().unwrap().down {
                    // Refused the way a stopped server refuses: the connection ends at once.
                    let _ = client.shutdown().await;
                    continue;
                }
                let faults = accept_faults.clone();
                let upstream = upstream.clone();
                let connection = tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    forward(client, server, faults).await;
                });
                let mut faults = accept_faults.lock().unwrap();
                faults.connections.retain(|task| !task.is_finished());
                faults.connections.push(connection);
            }
        });
        Self {
            address,
            faults,
            accept,
        }
    }

    /// The service goes away: open connections are reset and new ones refused.
    pub fn cut(&self) {
        let mut faults = self.faults.lock().unwrap();
        faults.down = true;
        for connection in faults.connections.drain(..) {
            connection.abort();
        }
    }

    /// The service is back: new connections go through again.
    pub fn restore(&self) {
        self.faults.lock().unwrap().down = false;
    }

    /// Resets every open connection but keeps accepting new ones, as a restart of the
    /// service looks to its clients once it is back up.
    pub fn reset_connections(&self) {
        self.cut();
        self.restore();
    }

    /// Adds `latency` to every chunk passed on from now on.
    pub fn set_latency(&self, latency: Duration) {
        self.faults.lock().unwrap().latency = latency;
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.accept.abort();
        self.cut();
    }
}

/// Copies bytes both ways until either side closes, waiting out the latency of the moment
/// before each chunk.
async fn forward(client: TcpStream, server: TcpStream, faults: Arc<Mutex<Faults>>) {
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    let up = pipe(client_read, server_write, faults.clone());
    let down = pipe(server_read, client_write, faults);
    tokio::select! {
        _ = up => {}
        _ = down => {}
    }
}

async fn pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    faults: Arc<Mutex<Faults>>,
) {
    use tokio::io::AsyncReadExt;
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        let latency = faults.lock().unwrap().latency;
        if !latency.is_zero() {
            tokio::time::sleep(latency).await;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}
