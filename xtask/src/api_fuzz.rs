//! `cargo xtask api-fuzz`: schemathesis against the real server, with every check on
//! (`property-tests/schemathesis.toml` turns them all on and names its two exceptions).
//!
//! Builds the `vitrine` binary, serves the demo site from a fresh SQLite database in a
//! temporary directory, and runs schemathesis (installed from PyPI into a virtual environment
//! under `target/api-fuzz`) against the server's own `/api/openapi.json`. Every state-changing
//! call carries a valid crumb (cookie and header) and the owner's token, so the run reaches the
//! handlers; schemathesis' `ignored_auth` check then removes them to prove they are required.
//! The run fails on any server error and any answer the description does not allow.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::process::run;
use crate::workspace;

/// The schemathesis release the run is pinned to, so a new release cannot fail CI unasked.
const SCHEMATHESIS: &str = "schemathesis==4.32.5";
/// The crumb every call carries; any value of the crumb's shape is one the server accepts.
const CRUMB: &str = "api-fuzz-crumb";
/// The owner's token the server is started with.
const OWNER_TOKEN: &str = "api-fuzz-owner-token-0123456789abcdef";
/// Stripe's webhook signing secret for the server under test, so the webhook route is served
/// and the fuzzer meets its signature check rather than the 404 of a shop without one.
const STRIPE_WEBHOOK_SECRET: &str = "whsec_apifuzz0123456789abcdef";
/// How long the server may take to answer its health check.
const START_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Test cases generated per operation and phase.
    #[arg(long, default_value_t = 20)]
    pub max_examples: u32,
}

pub fn run_api_fuzz(args: &Args) -> Result<()> {
    run(
        &workspace::root(),
        "cargo",
        &["build", "--package", "vitrine", "--locked"],
        &[],
    )?;
    fuzz_built_server(args)
}

/// Schemathesis against the `vitrine` already built in the target directory (by
/// `run_api_fuzz`, or by the workspace build of `cargo xtask test`).
pub fn fuzz_built_server(args: &Args) -> Result<()> {
    let root = workspace::root();
    let out = workspace::target_dir().join("api-fuzz");
    let schemathesis = install_schemathesis(&out)?;
    let data_dir = std::env::temp_dir().join(format!("vitrine-api-fuzz-{}", std::process::id()));
    // A fresh database every run, removed afterwards.
    let _ = fs::remove_dir_all(&data_dir);
    fs::create_dir_all(&data_dir)?;
    let result = fuzz_live_server(&root, &out, &schemathesis, &data_dir, args);
    let _ = fs::remove_dir_all(&data_dir);
    result
}

fn fuzz_live_server(
    root: &Path,
    out: &Path,
    schemathesis: &Path,
    data_dir: &Path,
    args: &Args,
) -> Result<()> {
    let port = free_port()?;
    let addr = format!("127.0.0.1:{port}");
    let server_log = out.join("server.log");
    let server = Server::start(&addr, data_dir, &server_log)?;
    server.wait_until_healthy(&addr)?;
    let schema = format!("http://{addr}/api/openapi.json");
    let config = root.join("property-tests/schemathesis.toml");
    let max_examples = args.max_examples.to_string();
    let report_dir = out.join("report");
    let cookie = format!("Cookie: crumb={CRUMB}");
    let crumb_header = format!("X-CSRF-Token: {CRUMB}");
    let owner = format!("Authorization: Bearer {OWNER_TOKEN}");
    // Run from the build directory: schemathesis keeps its example database where it runs.
    let result = run(
        out,
        &schemathesis.to_string_lossy(),
        &[
            "--config-file",
            &config.to_string_lossy(),
            "run",
            &schema,
            "--max-examples",
            &max_examples,
            "--seed",
            "20251125",
            "--workers",
            "2",
            "--generation-with-security-parameters",
            "false",
            "--header",
            &cookie,
            "--header",
            &crumb_header,
            "--header",
            &owner,
            "--report",
            "junit",
            "--report-dir",
            &report_dir.to_string_lossy(),
            "--no-color",
        ],
        &[],
    );
    drop(server);
    result.with_context(|| format!("the server's log is in {}", server_log.display()))
}

/// Creates the virtual environment and installs schemathesis into it when it is missing.
fn install_schemathesis(out: &Path) -> Result<PathBuf> {
    let venv = out.join("venv");
    let schemathesis = venv.join("bin/schemathesis");
    if schemathesis.is_file() {
        return Ok(schemathesis);
    }
    fs::create_dir_all(out)?;
    let venv_text = venv.to_string_lossy();
    run(out, "python3", &["-m", "venv", &venv_text], &[])?;
    let pip = venv.join("bin/pip");
    run(
        out,
        &pip.to_string_lossy(),
        &["install", "--quiet", SCHEMATHESIS],
        &[],
    )?;
    Ok(schemathesis)
}

/// A port nothing listens on now; the server binds it a moment later.
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("no free local port")?;
    Ok(listener.local_addr()?.port())
}

/// The `vitrine serve` process, stopped when dropped.
struct Server {
    child: Child,
}

impl Server {
    fn start(addr: &str, data_dir: &Path, log: &Path) -> Result<Self> {
        let binary = workspace::target_dir().join("debug/vitrine");
        let log_file = File::create(log)?;
        let child = Command::new(&binary)
            // Plain HTTP, as the schema is fetched over it, and rate limits out of reach: a
            // fuzzer is one client asking fast, and a 429 would hide what it came to find.
            .args([
                "serve",
                "--plain-http",
                "--test-payments",
                "--request-limits",
                "address=1000000,visitor=1000000",
                "--attempt-limits",
                "address=1000000,visitor=1000000",
                "--addr",
                addr,
                "--data-dir",
            ])
            .arg(data_dir)
            .env("VITRINE_OWNER_TOKEN", OWNER_TOKEN)
            .env("VITRINE_STRIPE_WEBHOOK_SECRET", STRIPE_WEBHOOK_SECRET)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::from(log_file.try_clone()?))
            .stderr(Stdio::from(log_file))
            .spawn()
            .with_context(|| format!("could not start {}", binary.display()))?;
        eprintln!("==> vitrine serve --addr {addr} (log in {})", log.display());
        Ok(Self { child })
    }

    fn wait_until_healthy(&self, addr: &str) -> Result<()> {
        let started = Instant::now();
        while started.elapsed() < START_TIMEOUT {
            if healthz_answers(addr) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        bail!("the server did not answer /healthz within {START_TIMEOUT:?}")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether `GET /healthz` answers 200, spoken as plain HTTP/1.0 over a socket.
fn healthz_answers(addr: &str) -> bool {
    let Ok(mut stream) = TcpStream::connect(addr) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    if stream
        .write_all(b"GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200") || answer.starts_with("HTTP/1.0 200")
}
