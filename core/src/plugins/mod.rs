//! The block-renderer port: how page rendering asks a plugin for the HTML of a block type the
//! platform does not render itself, and what comes back.
//!
//! The port is synchronous because a render is a few microseconds of computation with no I/O:
//! the WebAssembly host runs it on the calling thread under its own time and memory limits.

mod block_type;
mod css;
mod html;
mod memory;
mod widget;

pub use block_type::{InvalidTypeName, PluginBlockType};
pub use css::{CssRefused, MAX_CSS_BYTES, PluginCss};
pub use html::PluginHtml;
pub use memory::InMemoryBlockRenderer;
pub use widget::{WidgetError, WidgetRequest, WidgetType, render_widget};

use thiserror::Error;

/// Everything a plugin may know about the block it renders and the page it sits on.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockRenderRequest<'a> {
    /// The site's locale, such as `en-GB`.
    pub locale: &'a str,
    /// The site's currency code, such as `EUR`.
    pub currency: &'a str,
    /// The block id without the `block-` prefix.
    pub block_id: &'a str,
    pub block_type: PluginBlockType,
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
    Unclaimed(PluginBlockType),
    #[error("plugin {plugin} is disabled after repeated failures")]
    Disabled { plugin: String },
    #[error("plugin {plugin} failed: {reason}")]
    Failed { plugin: String, reason: String },
    /// The block data is larger than the plugin accepts; refused before the plugin ran. The
    /// caller's input is at fault, not the plugin, so it never counts towards disabling it.
    #[error("The block data is {size} bytes, above this block's limit of {limit} bytes.")]
    InputTooLarge {
        plugin: String,
        size: usize,
        limit: usize,
    },
    /// The plugin refused the block data as not what its block type holds. Also the caller's
    /// input, not a failure of the plugin.
    #[error("The block data is not valid for this block: {reason}")]
    InvalidInput { plugin: String, reason: String },
    /// Every render slot is taken and the queue is full: try again shortly.
    #[error("too many blocks are being rendered at the moment")]
    Busy,
}

impl BlockRenderError {
    /// Whether the caller's input, rather than the plugin or the server, is at fault.
    pub fn is_input_error(&self) -> bool {
        matches!(self, Self::InputTooLarge { .. } | Self::InvalidInput { .. })
    }
}

/// What visitors see where a plugin block could not be rendered: the rest of the page renders
/// as usual (fail-open), and the owner finds the reason in the log.
///
/// The specification is silent on this text; it is deliberately neutral, names no plugin and
/// reveals no error.
pub const FALLBACK_HTML: &str =
    r#"<p class="plugin-fallback">This content is not available right now.</p>"#;

/// A plugin's answer for one block, ready for a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginRendering {
    pub html: PluginHtml,
    /// The block's own CSS, scoped to the block, when the plugin gave some.
    pub css: Option<PluginCss>,
    /// How long the rendering may be reused, in seconds, when the plugin says; a page holding
    /// it is not served from the page cache for longer.
    pub cache_seconds: Option<u32>,
}

impl PluginRendering {
    /// A rendering with no lifetime of its own: reused until the site changes.
    pub fn lasting(html: PluginHtml) -> Self {
        Self {
            html,
            css: None,
            cache_seconds: None,
        }
    }
}

/// Renders the blocks of types that plugins claim.
pub trait BlockRenderer: Send + Sync {
    /// Whether some loaded, enabled plugin renders this block type.
    fn claims(&self, block_type: &PluginBlockType) -> bool;

    /// Renders one block, returning sanitised HTML.
    fn render(&self, request: &BlockRenderRequest<'_>)
    -> Result<PluginRendering, BlockRenderError>;

    /// A number that changes whenever the loaded plugins change (a plugin reloaded while the
    /// server runs), so pages rendered with the old plugins are not served again.
    fn generation(&self) -> u64 {
        0
    }
}

/// A plugin block ready for the page: the plugin's rendering, or the fallback (no CSS,
/// reusable for as long as the page) when it failed.
pub fn render_or_fallback(
    renderer: &dyn BlockRenderer,
    request: &BlockRenderRequest<'_>,
) -> PluginRendering {
    renderer
        .render(request)
        .unwrap_or_else(|_| PluginRendering::lasting(PluginHtml::fallback()))
}
