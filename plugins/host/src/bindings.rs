//! The host side of the WIT contract in `plugins/wit`, generated at compile time.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "block-renderer",
});
