//! Blocks rendered by a WebAssembly plugin: the plugin's sanitised HTML, or the fallback when
//! no plugin claims the type or the plugin failed, so the rest of the page always renders.

use std::fmt;

use vitrine_core::plugins::{
    BlockRenderRequest, FALLBACK_HTML, PluginBlockType, PluginCss, render_or_fallback,
};

use crate::render::scope::RenderScope;

/// The finished HTML of a plugin block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PluginBlock {
    /// Sanitised by the core's allow-list ([`vitrine_core::plugins::PluginHtml`]) or the
    /// fixed fallback, so it is written unescaped.
    html: String,
}

impl PluginBlock {
    pub(crate) fn new(
        scope: &RenderScope<'_>,
        id: &str,
        block_type: &PluginBlockType,
        data: &serde_json::Value,
    ) -> Self {
        let Some(plugins) = scope.plugins() else {
            return Self {
                html: FALLBACK_HTML.to_owned(),
            };
        };
        let data = data.to_string();
        let request = BlockRenderRequest {
            locale: scope.locale_tag(),
            currency: scope.currency_code(),
            block_id: id,
            block_type: block_type.clone(),
            // Pages are rendered for anonymous visitors (the page cache holds only those).
            signed_in: false,
            page_url: &scope.view.path,
            data: &data,
        };
        let rendering = render_or_fallback(plugins, &request);
        if let Some(seconds) = rendering.cache_seconds {
            scope.limit_cache_seconds(seconds);
        }
        let mut html = String::new();
        if let Some(css) = rendering.css {
            // A stylesheet in the body is allowed by HTML and by the pages' `style-src 'self'`,
            // where an inline style would not be.
            html.push_str(&stylesheet_link(&css));
            scope.add_stylesheet(css);
        }
        html.push_str(rendering.html.as_str());
        Self { html }
    }
}

/// The link to a plugin block's stylesheet, served by `/plugin-styles/NAME`.
pub(crate) fn stylesheet_link(css: &PluginCss) -> String {
    format!(r#"<link rel="stylesheet" href="{}">"#, stylesheet_href(css))
}

/// Where a block's stylesheet is served: `/plugin-styles/NAME`.
pub(crate) fn stylesheet_href(css: &PluginCss) -> String {
    format!("{}{}", crate::render::plugin_styles::PATH, css.file_name())
}

impl fmt::Display for PluginBlock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.html)
    }
}
