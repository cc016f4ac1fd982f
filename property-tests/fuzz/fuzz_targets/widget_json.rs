//! `GetWidgetRendering`'s `widgetJSON` comes from the browser. Reading it is either a request
//! or an `Invalid` error, and the data a plugin receives is always JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_core::plugins::{PluginBlockType, WidgetRequest, WidgetType};

fuzz_target!(|widget_json: &str| {
    let Ok(request) = WidgetRequest::parse(widget_json) else {
        return;
    };
    let data = request.data();
    serde_json::from_str::<serde_json::Value>(&data).expect("plugin data is JSON");
    if let WidgetType::Name(name) = &request.block_type {
        // A custom type name is validated, never trusted.
        if let Ok(block_type) = PluginBlockType::from_name(name) {
            assert!(!block_type.name().is_empty());
        }
    }
});
