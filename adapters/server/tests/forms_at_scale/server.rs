//! A `vitrine serve` child process, started on a free port and killed when dropped.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// What the server wrote to standard error, for failure messages.
    log: Arc<Mutex<String>>,
}

/// Raised far above what the load sends, so that the crash test measures storage, not limits.
pub const NO_LIMITS: &str = "visitor=1000000,form=1000000,keys=1000000";
/// The request rate limits every test server gets: the tests send thousands of requests from
/// 127.0.0.1, which the default per-address limit would stop.
pub const NO_REQUEST_LIMITS: &str = "address=10000000,visitor=10000000";

pub fn vitrine() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    // Warnings only: a request log line per submission would be most of the output.
    command.env("RUST_LOG", "warn");
    for variable in [
        "VITRINE_DATABASE_URL",
        "VITRINE_REDIS_URL",
        "VITRINE_REDIS_PREFIX",
        "VITRINE_FORM_LIMITS",
        "VITRINE_ADDR",
        "VITRINE_DATA_DIR",
        "VITRINE_PLAIN_HTTP",
        "VITRINE_REQUEST_LIMITS",
        "VITRINE_ATTEMPT_LIMITS",
        "VITRINE_TRUSTED_PROXIES",
        "VITRINE_OWNER_TOKEN",
    ] {
        command.env_remove(variable);
    }
    command
}

/// Runs a `vitrine` command to the end and fails the test when it fails.
pub fn run(args: &[&str]) {
    let output = vitrine().args(args).output().expect("vitrine runs");
    assert!(
        output.status.success(),
        "vitrine {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

impl Server {
    /// `vitrine serve` with `args` added, once it says where it listens. The tests speak plain
    /// HTTP, so the server is told (`--plain-http`: the crumb cookie is `crumb`), and their
    /// load comes from one address, so the request and attempt rate limits are raised out of
    /// the way.
    pub fn start(data_dir: &Path, args: &[&str]) -> Self {
        let mut child = vitrine()
            .args([
                "serve",
                "--plain-http",
                "--test-payments",
                "--addr",
                "127.0.0.1:0",
                "--request-limits",
                NO_REQUEST_LIMITS,
                "--attempt-limits",
                NO_REQUEST_LIMITS,
                "--data-dir",
            ])
            .arg(data_dir)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let log = Arc::new(Mutex::new(String::new()));
        // Standard error is drained all the time, so a chatty server never blocks on a full
        // pipe.
        let mut stderr = child.stderr.take().unwrap();
        let stderr_log = log.clone();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(read) = stderr.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                let mut log = stderr_log.lock().unwrap();
                log.push_str(&String::from_utf8_lossy(&buffer[..read]));
                if log.len() > 64 * 1024 {
                    let cut = log.len() - 32 * 1024;
                    let cut = log.ceil_char_boundary(cut);
                    log.drain(..cut);
                }
            }
        });
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let address = loop {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some((_, url)) = line.split_once(" at http://") {
                        break url.trim().to_owned();
                    }
                }
                _ => {
                    let _ = child.wait();
                    panic!("the server stopped before serving: {}", log.lock().unwrap());
                }
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Self {
            child,
            address,
            log,
        }
    }

    /// SIGKILL: the process gets no chance to flush or finish anything.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The process id, to read its memory use.
    #[allow(dead_code)] // the mixed load benchmark, which shares this file, samples its memory
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}
