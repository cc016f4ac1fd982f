//! The block-renderer port: how page rendering asks a plugin for the HTML of a block type the
//! platform does not render itself, and what comes back.
//!
//! The port is synchronous because a render is a few microseconds of computation with no I/O:
//! the WebAssembly host runs it on the calling thread under its own time and memory limits.

mod html;
mod memory;
mod widget;

pub use html::PluginHtml;
pub use memory::InMemoryBlockRenderer;
pub use widget::{WidgetError, WidgetRequest, render_widget};

use thiserror::Error;

use crate::enums::BlockType;

/// Everything a plugin may know about the block it renders and the page it sits on.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockRenderRequest<'a> {
    /// The site's locale, such as `en-GB`.
    pub locale: &'a str,
    /// The site's currency code, such as `EUR`.
    pub currency: &'a str,
    /// The block id without the `block-` prefix.
    pub block_id: &'a str,
    pub block_type: BlockType,
    pub signed_in: bool,
    /// The path of the page, such as `/about`.
    pub page_url: &'a str,
    /// The block's data, as JSON text.
    pub data: &'a str,
}

/// Why a plugin block has no plugin HTML; the page then shows [`FALLBACK_HTML`] instead.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BlockRenderError {
    #[error("no plugin renders block type {0}")]
    Unclaimed(BlockType),
    #[error("plugin {plugin} is disabled after repeated failures")]
    Disabled { plugin: String },
    #[error("plugin {plugin} failed: {reason}")]
    Failed { plugin: String, reason: String },
}

/// What visitors see where a plugin block could not be rendered: the rest of the page renders
/// as usual (fail-open), and the owner finds the reason in the log.
///
/// The specification is silent on this text; it is deliberately neutral, names no plugin and
/// reveals no error.
pub const FALLBACK_HTML: &str =
    r#"<p class="plugin-fallback">This content is not available right now.</p>"#;

/// Renders the blocks of types that plugins claim.
pub trait BlockRenderer: Send + Sync {
    /// Whether some loaded, enabled plugin renders this block type.
    fn claims(&self, block_type: BlockType) -> bool;

    /// Renders one block, returning sanitised HTML.
    fn render(&self, request: &BlockRenderRequest<'_>) -> Result<PluginHtml, BlockRenderError>;
}

/// The HTML for a plugin block: the plugin's rendering, or the fallback when it failed.
pub fn render_or_fallback(
    renderer: &dyn BlockRenderer,
    request: &BlockRenderRequest<'_>,
) -> String {
    match renderer.render(request) {
        Ok(html) => html.into_string(),
        Err(_) => FALLBACK_HTML.to_owned(),
    }
}
