//! The `vitrine` command as people run it: the real binary, a temporary data directory and an
//! embedded SQLite database; results are checked through the repository.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use vitrine_core::ports::SiteRepository;

/// The binary with a clean environment: no VITRINE_* settings from the developer's shell.
fn vitrine() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    for variable in [
        "VITRINE_ADDR",
        "VITRINE_DATABASE_URL",
        "VITRINE_DATA_DIR",
        "VITRINE_PUBLIC_URL",
        "VITRINE_LOG_FORMAT",
    ] {
        command.env_remove(variable);
    }
    command.env("RUST_LOG", "warn");
    command
}

fn run(args: &[&str]) -> Output {
    vitrine().args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn demo_site_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../demo-site")
}

async fn repository_in(data_dir: &Path) -> std::sync::Arc<dyn SiteRepository> {
    let url = vitrine_sql::sqlite_url_for_data_dir(data_dir);
    vitrine_sql::connect(&url)
        .await
        .expect("the database opens")
        .repository()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn help_mentions_every_subcommand_and_setting() {
    let help = run(&["--help"]);
    assert!(help.status.success());
    let help = text(&help.stdout);
    for subcommand in ["serve", "import", "migrate"] {
        assert!(
            help.contains(subcommand),
            "--help mentions {subcommand}: {help}"
        );
    }
    let serve = text(&run(&["serve", "--help"]).stdout);
    for setting in [
        "--addr",
        "VITRINE_ADDR",
        "--database-url",
        "VITRINE_DATABASE_URL",
        "--data-dir",
        "VITRINE_DATA_DIR",
        "--public-url",
        "VITRINE_PUBLIC_URL",
        "127.0.0.1:8080",
        "./vitrine-data",
        "--test-payments",
        "VITRINE_TEST_PAYMENTS",
        "--order-link-key",
        "VITRINE_ORDER_LINK_KEY",
    ] {
        assert!(
            serve.contains(setting),
            "serve --help mentions {setting}: {serve}"
        );
    }
    let import = text(&run(&["import", "--help"]).stdout);
    assert!(
        import.contains("--demo") && import.contains("--data-dir"),
        "{import}"
    );
}

#[tokio::test]
async fn a_broken_bundle_is_refused_naming_the_file_and_nothing_is_imported() {
    let work = tempfile::tempdir().unwrap();
    let bundle = work.path().join("bundle");
    copy_dir(&demo_site_dir(), &bundle);
    let broken = std::fs::read_dir(bundle.join("collections"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|e| e == "toml"))
        .expect("the demo has collection files");
    std::fs::write(&broken, "title = [\n").unwrap();
    let data_dir = work.path().join("data");

    let output = run(&[
        "import",
        bundle.to_str().unwrap(),
        "--data-dir",
        data_dir.to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    let name = format!(
        "collections/{}",
        broken.file_name().unwrap().to_str().unwrap()
    );
    assert!(stderr.contains(&name), "the error names {name}: {stderr}");
    assert!(stderr.contains("not imported"), "{stderr}");
    assert!(repository_in(&data_dir).await.is_empty().await.unwrap());
}

#[test]
fn a_missing_bundle_directory_is_named() {
    let work = tempfile::tempdir().unwrap();
    let missing = work.path().join("no-such-bundle");
    let output = run(&[
        "import",
        missing.to_str().unwrap(),
        "--data-dir",
        work.path().to_str().unwrap(),
    ]);
    assert!(!output.status.success());
    assert!(text(&output.stderr).contains("no-such-bundle"));
}

#[tokio::test]
async fn the_demo_imports_into_a_fresh_sqlite_database() {
    let work = tempfile::tempdir().unwrap();
    let data_dir = work.path().join("data");
    let output = run(&["import", "--demo", "--data-dir", data_dir.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(text(&output.stdout).starts_with("Imported \""));

    let repository = repository_in(&data_dir).await;
    let profile = repository
        .profile()
        .await
        .unwrap()
        .expect("a site is stored");
    assert!(!profile.settings.site_title.is_empty());
    assert!(!repository.collections().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_directory_bundle_replaces_the_stored_site() {
    let work = tempfile::tempdir().unwrap();
    let data_dir = work.path().join("data");
    let url = vitrine_sql::sqlite_url_for_data_dir(&data_dir);
    let output = run(&[
        "import",
        demo_site_dir().to_str().unwrap(),
        "--database-url",
        &url,
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(!repository_in(&data_dir).await.is_empty().await.unwrap());
}

#[test]
fn migrate_prepares_a_database_and_can_run_again() {
    let work = tempfile::tempdir().unwrap();
    let data_dir = work.path().join("data");
    for _ in 0..2 {
        let output = run(&["migrate", "--data-dir", data_dir.to_str().unwrap()]);
        assert!(output.status.success(), "{}", text(&output.stderr));
        assert!(text(&output.stdout).contains("is up to date"));
    }
    assert!(data_dir.join(vitrine_sql::SQLITE_FILE_NAME).is_file());
}

/// One HTTP/1.1 request over a plain socket; the answer's status line and body.
fn http_get(address: &str, path: &str) -> (String, String) {
    let mut stream = TcpStream::connect(address).expect("the server accepts connections");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.lines().next().unwrap_or_default().to_owned();
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[cfg(unix)]
#[test]
fn serve_imports_the_demo_into_an_empty_database_and_stops_on_sigterm() {
    let work = tempfile::tempdir().unwrap();
    let mut server = vitrine()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(work.path().join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut said = Vec::new();
    let address = loop {
        let Some(Ok(line)) = lines.next() else {
            let _ = server.kill();
            let mut stderr = String::new();
            server
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut stderr)
                .unwrap();
            panic!("the server stopped before serving: {said:?} {stderr}");
        };
        if let Some((_, url)) = line.split_once(" at http://") {
            break url.trim().to_owned();
        }
        said.push(line);
    };
    assert!(
        said.iter()
            .any(|line| line.contains("imported the demo site")),
        "{said:?}"
    );

    let (status, body) = http_get(&address, "/healthz");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.ends_with("ok"), "{body}");
    let (status, body) = http_get(&address, "/");
    assert!(status.contains(" 200 "), "{status}");
    assert!(body.contains("vitrine-page-context"));

    let signal = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(signal.success());
    let exit = server.wait().unwrap();
    assert!(exit.success(), "a SIGTERM is a clean stop: {exit:?}");
}

#[test]
fn serve_keeps_serving_when_nobody_reads_what_it_says() {
    let work = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let mut server = vitrine()
        .args(["serve", "--addr", &address, "--data-dir"])
        .arg(work.path().join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    // Whoever started it stops reading at once, so every line it says meets a closed pipe.
    drop(server.stdout.take());
    let start = std::time::Instant::now();
    while TcpStream::connect(&address).is_err() {
        let stopped = server.try_wait().unwrap();
        assert!(stopped.is_none(), "the server stopped: {stopped:?}");
        assert!(start.elapsed() < Duration::from_secs(120), "never served");
        std::thread::sleep(Duration::from_millis(100));
    }
    let (status, _) = http_get(&address, "/healthz");
    assert!(status.contains(" 200 "), "{status}");
    // It has said everything it says at start by now, and still serves.
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = http_get(&address, "/healthz");
    assert!(status.contains(" 200 "), "{status}");
    assert!(server.try_wait().unwrap().is_none());
    let _ = server.kill();
    let _ = server.wait();
}

/// A plugin folder built by `cargo xtask plugins`, which `cargo xtask test` runs first.
fn built_plugin(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/guests/target/plugins")
        .join(name);
    assert!(
        dir.join("plugin.toml").is_file(),
        "plugins not built: run `cargo xtask plugins` first"
    );
    dir
}

#[test]
fn plugin_check_renders_a_block_and_reports_size_and_output() {
    let data = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        data.path(),
        r#"{"title":"T","description":"D","kind":"bar","points":[{"label":"A","value":1}]}"#,
    )
    .unwrap();
    let chart = built_plugin("chart");
    let output = run(&[
        "plugin",
        "check",
        chart.to_str().unwrap(),
        "--data",
        data.path().to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("(limit 262144 bytes)"), "{stdout}");
    assert!(stdout.contains("rendered chart in"), "{stdout}");
    // The memory a render reached, against the 10 MiB default limit.
    let peak: usize = stdout
        .lines()
        .find_map(|line| line.strip_prefix("peak memory: "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|bytes| bytes.parse().ok())
        .unwrap_or_else(|| panic!("no peak memory line: {stdout}"));
    assert!(peak > 0 && peak <= 10 * 1024 * 1024, "{stdout}");
    assert!(stdout.contains("(limit 10485760 bytes)"), "{stdout}");
}

#[test]
fn plugin_check_refuses_an_undeclared_capability() {
    let plugin = built_plugin("undeclared-capability");
    let output = run(&["plugin", "check", plugin.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("uses the collections capability without declaring it"),
        "{}",
        text(&output.stderr)
    );
}
