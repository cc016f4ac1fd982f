//! What the fuzz targets share: reading a site bundle out of one fuzz input, the demo site,
//! and running the core's async services, whose in-memory ports never wait, without a runtime.

use std::future::Future;
use std::path::Path;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use vitrine_core::bundle::BundleFiles;

/// The line that starts a file in a bundle written as one text: `>>> collections/home.toml`.
pub const FILE_MARKER: &str = ">>> ";

/// Reads a bundle written as one text, each file introduced by a line `>>> PATH`, so seeds
/// stay readable and the fuzzer can add, drop and rename files as easily as it edits them.
/// Bytes before the first marker are ignored.
pub fn bundle_from_text(input: &[u8]) -> BundleFiles {
    let mut files = BundleFiles::new();
    let mut current: Option<(String, Vec<u8>)> = None;
    for line in input.split_inclusive(|byte| *byte == b'\n') {
        if let Some(path) = line.strip_prefix(FILE_MARKER.as_bytes()) {
            if let Some((path, contents)) = current.take() {
                files.insert(path, contents);
            }
            let path = String::from_utf8_lossy(path).trim_end().to_owned();
            current = Some((path, Vec::new()));
        } else if let Some((_, contents)) = current.as_mut() {
            contents.extend_from_slice(line);
        }
    }
    if let Some((path, contents)) = current {
        files.insert(path, contents);
    }
    files
}

/// The demo storefront's bundle, read from the source tree.
pub fn demo_bundle() -> BundleFiles {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../adapters/demo-site");
    let mut files = BundleFiles::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("the demo site is in the source tree") {
            let path = entry.expect("a readable directory entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let relative = path.strip_prefix(&root).expect("under the root");
            let relative = relative.to_string_lossy().replace('\\', "/");
            if relative != "README.md" {
                files.insert(relative, std::fs::read(&path).expect("a readable file"));
            }
        }
    }
    files
}

/// Runs a future that never waits, as the core's services do over in-memory ports, and
/// panics if it does wait, since that would mean a port that is not in memory.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    match future.as_mut().poll(&mut context) {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("an in-memory port waited"),
    }
}
