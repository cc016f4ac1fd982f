//! The guest side of Vitrine's block-plugin contract, so that a plugin is one function.
//!
//! A plugin declares the shape of its block data with serde, implements [`BlockPlugin`] and
//! calls [`plugin!`]. The SDK turns the JSON the host sends into that type, reports data that
//! does not fit as `invalid-data`, and wraps the HTML the plugin returns into the contract's
//! `rendering`. Capabilities the manifest declares are plain functions: [`log`], [`money`] and
//! [`collections`].

// Generated code: its lowering functions take one argument per flattened field.
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "block-renderer",
        pub_export_macro: true,
        export_macro_name: "export_block_renderer",
        default_bindings_module: "vitrine_plugin_sdk::bindings",
    });
}

mod escape;

#[doc(hidden)]
pub use bindings::Guest;
#[doc(hidden)]
pub use bindings::export_block_renderer;
pub use bindings::vitrine::block::types::{CollectionItem, RenderContext, RenderError, Rendering};
pub use escape::escape;
pub use serde;

use serde::de::DeserializeOwned;

/// A block renderer: the data it expects and how it turns that data into HTML.
pub trait BlockPlugin {
    /// The block's data, as the site stores it.
    type Data: DeserializeOwned;

    /// How long, in seconds, a rendering may be reused; `None` (the default) keeps it until
    /// the site changes. A block that depends on the date, such as upcoming events, sets it.
    const CACHE_SECONDS: Option<u32> = None;

    /// The block's own CSS, when it needs some: plain rules (`.list { padding: 0 }`) that the
    /// host scopes to the block; at-rules, `url()` and escapes are refused.
    const CSS: Option<&'static str> = None;

    /// Renders one block. Return HTML; the host removes anything executable from it.
    fn render(context: &RenderContext, data: Self::Data) -> Result<String, RenderError>;
}

/// Runs one render for the export the [`plugin!`] macro generates.
#[doc(hidden)]
pub fn run<P: BlockPlugin>(context: RenderContext, data: String) -> Result<Rendering, RenderError> {
    let data: P::Data =
        serde_json::from_str(&data).map_err(|error| RenderError::InvalidData(error.to_string()))?;
    let html = P::render(&context, data)?;
    Ok(Rendering {
        html,
        css: P::CSS.map(str::to_owned),
        cache_seconds: P::CACHE_SECONDS,
    })
}

/// Exports a [`BlockPlugin`] as the component's `render` function.
#[macro_export]
macro_rules! plugin {
    ($plugin:ty) => {
        #[doc(hidden)]
        pub struct VitrinePluginExport;

        impl $crate::Guest for VitrinePluginExport {
            fn render(
                context: $crate::RenderContext,
                data: ::std::string::String,
            ) -> ::std::result::Result<$crate::Rendering, $crate::RenderError> {
                $crate::run::<$plugin>(context, data)
            }
        }

        $crate::export_block_renderer!(VitrinePluginExport);
    };
}

/// The `log` capability: lines go to the server's log under the plugin's name.
pub mod log {
    pub use crate::bindings::vitrine::block::log::Level;

    /// Writes one line to the server's log.
    pub fn write(level: Level, message: &str) {
        crate::bindings::vitrine::block::log::write(level, message);
    }
}

/// The `money` capability: amounts in the site's currency and locale.
pub mod money {
    /// Formats an amount given in the currency's smallest unit, such as cents.
    pub fn format(minor_units: i64) -> String {
        crate::bindings::vitrine::block::money::format(minor_units)
    }
}

/// The `collections` capability: another collection's published items.
pub mod collections {
    use crate::CollectionItem;

    /// At most `limit` items of the collection, newest first.
    pub fn items(collection_id: &str, limit: u32) -> Vec<CollectionItem> {
        crate::bindings::vitrine::block::collections::items(collection_id, limit)
    }

    /// At most `limit` items of the collection dated today or later, soonest first.
    pub fn upcoming(collection_id: &str, limit: u32) -> Vec<CollectionItem> {
        crate::bindings::vitrine::block::collections::upcoming(collection_id, limit)
    }
}
