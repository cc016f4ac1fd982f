//! Loading the built plugins, and a render request to send them.

use std::path::PathBuf;

use vitrine_core::enums::BlockType;
use vitrine_core::plugins::BlockRenderRequest;
use vitrine_plugins::{LoadError, PluginHost};

/// Where `cargo xtask plugins` lays out the built plugins.
pub fn built_plugins() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../guests/target/plugins");
    // Missing plugins are a failure, not a skip: CI builds them before the tests.
    assert!(
        dir.join("chart/chart.wasm").is_file(),
        "the WebAssembly plugins are not built: run `cargo xtask plugins` (it installs the \
         wasm32-wasip2 target and builds plugins/guests), then run the tests again"
    );
    dir
}

/// A host with one built plugin loaded.
pub fn host_with(name: &str) -> PluginHost {
    let mut host = PluginHost::new(None).expect("engine");
    host.load_plugin_dir(&built_plugins().join(name))
        .expect("plugin loads");
    host
}

/// Loading a built plugin, for tests that expect it to be refused.
pub fn load(name: &str) -> Result<String, LoadError> {
    PluginHost::new(None)
        .expect("engine")
        .load_plugin_dir(&built_plugins().join(name))
}

pub fn request(block_type: BlockType, data: &str) -> BlockRenderRequest<'_> {
    BlockRenderRequest {
        locale: "en-GB",
        currency: "EUR",
        block_id: "b7",
        block_type: block_type.into(),
        signed_in: false,
        page_url: "/about",
        data,
    }
}
