//! The plugin author's path with the real binary: `vitrine plugin new`, `build` and `check`,
//! and `vitrine serve --watch-plugins` loading a changed plugin without a restart.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn vitrine() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_vitrine"));
    for variable in [
        "VITRINE_ADDR",
        "VITRINE_DATABASE_URL",
        "VITRINE_DATA_DIR",
        "VITRINE_PUBLIC_URL",
        "VITRINE_LOG_FORMAT",
        "VITRINE_PLUGINS_DIR",
        "VITRINE_WATCH_PLUGINS",
    ] {
        command.env_remove(variable);
    }
    command.env("RUST_LOG", "warn");
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn succeeded(output: &Output) -> String {
    let stdout = text(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        text(&output.stderr)
    );
    stdout
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

/// Creates, builds and checks a new plugin project. The project depends on this repository's
/// SDK and starts from its lock file, so the build needs no network once the guests were
/// built; it compiles the SDK's dependencies for WebAssembly, which takes a while.
#[test]
fn a_new_plugin_project_builds_and_passes_the_check() {
    let work = tempfile::tempdir().unwrap();
    let created = succeeded(
        &vitrine()
            .args(["plugin", "new", "opening-hours"])
            .current_dir(work.path())
            .output()
            .unwrap(),
    );
    assert!(created.contains("created the plugin project"), "{created}");
    let project = work.path().join("opening-hours");
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "plugin.toml",
        "src/lib.rs",
        "sample.json",
        ".cargo/config.toml",
    ] {
        assert!(project.join(file).is_file(), "{file} is created");
    }

    let built = succeeded(
        &vitrine()
            .args(["plugin", "build"])
            .arg(&project)
            .env("CARGO_NET_OFFLINE", "true")
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap(),
    );
    let component = project.join("opening-hours.wasm");
    assert!(built.contains("opening-hours.wasm"), "{built}");
    assert!(component.is_file(), "the component is beside plugin.toml");

    let checked = succeeded(
        &vitrine()
            .args(["plugin", "check"])
            .arg(&project)
            .arg("--data")
            .arg(project.join("sample.json"))
            .output()
            .unwrap(),
    );
    assert!(
        checked.contains("rendered opening-hours (custom) in"),
        "{checked}"
    );
    assert!(
        checked.contains(r#"<section class="opening-hours"><h2>Opening hours</h2><ul><li>Monday to Friday, 9:00 to 18:00</li>"#),
        "{checked}"
    );
    // Linked with the template's 128 KiB stack, the plugin's memory stays well under 1 MiB.
    let peak: usize = checked
        .lines()
        .find_map(|line| line.strip_prefix("peak memory: "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|bytes| bytes.parse().ok())
        .unwrap_or_else(|| panic!("no peak memory line: {checked}"));
    assert!(peak < 1024 * 1024, "{checked}");
}

#[test]
fn a_project_name_that_cannot_be_a_plugin_is_refused() {
    let work = tempfile::tempdir().unwrap();
    let output = vitrine()
        .args(["plugin", "new", "Opening Hours"])
        .current_dir(work.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("is not a plugin name"),
        "{}",
        text(&output.stderr)
    );
}

struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data_dir: &Path, plugins: &Path) -> Server {
    let mut child = vitrine()
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--watch-plugins",
            "--data-dir",
        ])
        .arg(data_dir)
        .arg("--plugins")
        .arg(plugins)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("the server says where it serves")
            .unwrap();
        if let Some((_, url)) = line.split_once(" at http://") {
            break url.trim().to_owned();
        }
    };
    Server { child, address }
}

fn http_get(address: &str, path: &str) -> String {
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
    answer
}

/// Asks for `path` until its HTML satisfies `wanted`, for up to 20 seconds.
fn eventually(server: &Server, path: &str, wanted: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let page = http_get(&server.address, path);
        if wanted(&page) || start.elapsed() > Duration::from_secs(20) {
            return page;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn chart_block(page: &str) -> &str {
    let start = page
        .find(r#"data-block-type="62""#)
        .expect("the about page holds a chart block");
    &page[start..start + 400.min(page.len() - start)]
}

#[test]
fn a_changed_plugin_is_loaded_again_while_the_server_runs() {
    let work = tempfile::tempdir().unwrap();
    let plugins = work.path().join("plugins");
    let chart = plugins.join("chart");
    std::fs::create_dir_all(&chart).unwrap();
    std::fs::copy(
        built_plugin("chart").join("chart.wasm"),
        chart.join("chart.wasm"),
    )
    .unwrap();
    let manifest = std::fs::read_to_string(built_plugin("chart").join("plugin.toml")).unwrap();
    // First the plugin claims another type, so the about page's chart shows the fallback.
    std::fs::write(
        chart.join("plugin.toml"),
        manifest.replace("code = 62", "code = 26"),
    )
    .unwrap();
    let server = serve(&work.path().join("data"), &plugins);
    let page = http_get(&server.address, "/about");
    assert!(
        chart_block(&page).contains("plugin-fallback"),
        "{}",
        chart_block(&page)
    );

    // The manifest is fixed: the chart renders, without a restart.
    std::fs::write(chart.join("plugin.toml"), &manifest).unwrap();
    let page = eventually(&server, "/about", |page| {
        chart_block(page).contains(r#"<figure class="chart">"#)
    });
    assert!(
        chart_block(&page).contains(r#"<figure class="chart">"#),
        "{}",
        chart_block(&page)
    );

    // The component is replaced by one that panics: the block falls back again.
    std::fs::copy(
        built_plugin("panic").join("panic.wasm"),
        chart.join("chart.wasm"),
    )
    .unwrap();
    let page = eventually(&server, "/about", |page| {
        chart_block(page).contains("plugin-fallback")
    });
    assert!(
        chart_block(&page).contains("plugin-fallback"),
        "{}",
        chart_block(&page)
    );
}
