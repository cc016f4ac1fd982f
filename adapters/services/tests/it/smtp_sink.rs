//! A tiny SMTP server that keeps what it receives: enough of RFC 5321 for lettre's client
//! (greeting, EHLO, MAIL, RCPT, DATA, QUIT), and a switch to refuse the next messages with a
//! temporary 451 the way a busy server does.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Debug, Clone)]
pub struct Received {
    pub rcpt: Vec<String>,
    pub data: String,
}

impl Received {
    /// The message with quoted-printable soft line breaks and `=3D` undone, as a mail
    /// client shows long lines such as links.
    pub fn decoded(&self) -> String {
        self.data.replace("=\n", "").replace("=3D", "=")
    }
}

#[derive(Clone, Default)]
pub struct SmtpSink {
    pub received: Arc<Mutex<Vec<Received>>>,
    /// Messages still to refuse with 451 at the end of DATA.
    pub refuse: Arc<AtomicUsize>,
}

impl SmtpSink {
    /// Listens on a free local port; `smtp://` URL of the sink.
    pub async fn start() -> (Self, String) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sink = Self::default();
        let url = format!("smtp://{}", listener.local_addr().unwrap());
        sink.clone().serve(listener);
        (sink, url)
    }

    /// Listens on `addr` (to come back on the same port after being "down").
    pub async fn start_at(addr: SocketAddr) -> Self {
        let listener = TcpListener::bind(addr).await.unwrap();
        let sink = Self::default();
        sink.clone().serve(listener);
        sink
    }

    fn serve(self, listener: TcpListener) {
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let sink = self.clone();
                tokio::spawn(async move { sink.session(stream).await });
            }
        });
    }

    pub fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    async fn session(&self, stream: tokio::net::TcpStream) {
        let (read, mut write) = stream.into_split();
        let mut lines = BufReader::new(read).lines();
        let mut rcpt = Vec::new();
        write.write_all(b"220 sink ESMTP\r\n").await.unwrap();
        while let Ok(Some(line)) = lines.next_line().await {
            let upper = line.to_ascii_uppercase();
            let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
                b"250-sink\r\n250 8BITMIME\r\n"
            } else if upper.starts_with("MAIL FROM") {
                rcpt.clear();
                b"250 OK\r\n"
            } else if upper.starts_with("RCPT TO") {
                rcpt.push(line[8..].trim().to_owned());
                b"250 OK\r\n"
            } else if upper == "DATA" {
                write.write_all(b"354 go on\r\n").await.unwrap();
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if line == "." {
                        break;
                    }
                    data.push_str(&line);
                    data.push('\n');
                }
                let refuse = self
                    .refuse
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                    .is_ok();
                if refuse {
                    b"451 try again later\r\n"
                } else {
                    self.received.lock().unwrap().push(Received {
                        rcpt: rcpt.clone(),
                        data,
                    });
                    b"250 queued\r\n"
                }
            } else if upper == "QUIT" {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            } else if upper == "RSET" || upper == "NOOP" {
                b"250 OK\r\n"
            } else {
                b"502 not implemented\r\n"
            };
            if write.write_all(reply).await.is_err() {
                return;
            }
        }
    }
}
