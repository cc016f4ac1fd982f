//! An in-memory block renderer: fixed HTML per block type, or a failure, for tests of the
//! pages that contain plugin blocks without running WebAssembly.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, PluginBlockType, PluginCss, PluginHtml,
    PluginRendering,
};

/// Renders each claimed block type with a fixed template in which `{data}` is replaced by the
/// block's data, or fails with a fixed reason; records the block ids it was asked for.
#[derive(Debug, Default)]
pub struct InMemoryBlockRenderer {
    outcomes: HashMap<PluginBlockType, Result<(String, Option<u32>), String>>,
    css: HashMap<PluginBlockType, String>,
    rendered: Mutex<Vec<String>>,
    generation: AtomicU64,
}

impl InMemoryBlockRenderer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Claims `block_type` and renders it with `template`.
    pub fn with_html(mut self, block_type: impl Into<PluginBlockType>, template: &str) -> Self {
        self.outcomes
            .insert(block_type.into(), Ok((template.to_owned(), None)));
        self
    }

    /// Claims `block_type` and renders it with `template`, reusable for `seconds`.
    pub fn with_html_for(
        mut self,
        block_type: impl Into<PluginBlockType>,
        template: &str,
        seconds: u32,
    ) -> Self {
        self.outcomes
            .insert(block_type.into(), Ok((template.to_owned(), Some(seconds))));
        self
    }

    /// Gives the renderings of `block_type` this CSS, scoped to each block.
    pub fn with_css(mut self, block_type: impl Into<PluginBlockType>, css: &str) -> Self {
        self.css.insert(block_type.into(), css.to_owned());
        self
    }

    /// Claims `block_type` and fails every render of it.
    pub fn with_failure(mut self, block_type: impl Into<PluginBlockType>, reason: &str) -> Self {
        self.outcomes
            .insert(block_type.into(), Err(reason.to_owned()));
        self
    }

    /// Stands for a plugin reloaded while the server runs.
    pub fn reload(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The ids of the blocks rendered so far, in order.
    pub fn rendered(&self) -> Vec<String> {
        self.rendered
            .lock()
            .map(|ids| ids.clone())
            .unwrap_or_default()
    }
}

impl BlockRenderer for InMemoryBlockRenderer {
    fn claims(&self, block_type: &PluginBlockType) -> bool {
        self.outcomes.contains_key(block_type)
    }

    fn render(
        &self,
        request: &BlockRenderRequest<'_>,
    ) -> Result<PluginRendering, BlockRenderError> {
        if let Ok(mut ids) = self.rendered.lock() {
            ids.push(request.block_id.to_owned());
        }
        match self.outcomes.get(&request.block_type) {
            None => Err(BlockRenderError::Unclaimed(request.block_type.clone())),
            Some(Ok((template, cache_seconds))) => Ok(PluginRendering {
                html: PluginHtml::sanitize(&template.replace("{data}", request.data)),
                css: self
                    .css
                    .get(&request.block_type)
                    .and_then(|css| PluginCss::scope(css, request.block_id).ok()),
                cache_seconds: *cache_seconds,
            }),
            Some(Err(reason)) => Err(BlockRenderError::Failed {
                plugin: "in-memory".to_owned(),
                reason: reason.clone(),
            }),
        }
    }

    fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enums::BlockType;
    use crate::plugins::{FALLBACK_HTML, render_or_fallback};

    fn request(block_type: impl Into<PluginBlockType>) -> BlockRenderRequest<'static> {
        BlockRenderRequest {
            locale: "en-GB",
            currency: "EUR",
            block_id: "b1",
            block_type: block_type.into(),
            signed_in: false,
            page_url: "/",
            data: "42",
        }
    }

    #[test]
    fn claimed_types_render_and_failures_fall_back() {
        let custom = PluginBlockType::Custom("event summary".to_owned());
        let renderer = InMemoryBlockRenderer::new()
            .with_html(BlockType::Chart, "<p onclick=\"x()\">{data}</p>")
            .with_html_for(custom.clone(), "<p>soon</p>", 60)
            .with_failure(BlockType::TourDates, "trap");
        assert!(renderer.claims(&BlockType::Chart.into()));
        assert!(!renderer.claims(&BlockType::Calendar.into()));
        let page = |block_type: PluginBlockType| {
            let rendering = render_or_fallback(&renderer, &request(block_type));
            (rendering.html.into_string(), rendering.cache_seconds)
        };
        assert_eq!(
            page(BlockType::Chart.into()),
            ("<p>42</p>".to_owned(), None)
        );
        assert_eq!(page(custom), ("<p>soon</p>".to_owned(), Some(60)));
        assert_eq!(
            page(BlockType::TourDates.into()),
            (FALLBACK_HTML.to_owned(), None)
        );
        assert_eq!(
            page(BlockType::Calendar.into()),
            (FALLBACK_HTML.to_owned(), None)
        );
        assert_eq!(renderer.rendered(), ["b1", "b1", "b1", "b1"]);
        assert_eq!(renderer.generation(), 0);
        renderer.reload();
        assert_eq!(renderer.generation(), 1);
    }
}
