//! An in-memory block renderer: fixed HTML per block type, or a failure, for tests of the
//! pages that contain plugin blocks without running WebAssembly.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::enums::BlockType;
use crate::plugins::{BlockRenderError, BlockRenderRequest, BlockRenderer, PluginHtml};

/// Renders each claimed block type with a fixed template in which `{data}` is replaced by the
/// block's data, or fails with a fixed reason; records the block ids it was asked for.
#[derive(Debug, Default)]
pub struct InMemoryBlockRenderer {
    outcomes: HashMap<BlockType, Result<String, String>>,
    rendered: Mutex<Vec<String>>,
}

impl InMemoryBlockRenderer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Claims `block_type` and renders it with `template`.
    pub fn with_html(mut self, block_type: BlockType, template: &str) -> Self {
        self.outcomes.insert(block_type, Ok(template.to_owned()));
        self
    }

    /// Claims `block_type` and fails every render of it.
    pub fn with_failure(mut self, block_type: BlockType, reason: &str) -> Self {
        self.outcomes.insert(block_type, Err(reason.to_owned()));
        self
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
    fn claims(&self, block_type: BlockType) -> bool {
        self.outcomes.contains_key(&block_type)
    }

    fn render(&self, request: &BlockRenderRequest<'_>) -> Result<PluginHtml, BlockRenderError> {
        if let Ok(mut ids) = self.rendered.lock() {
            ids.push(request.block_id.to_owned());
        }
        match self.outcomes.get(&request.block_type) {
            None => Err(BlockRenderError::Unclaimed(request.block_type)),
            Some(Ok(template)) => Ok(PluginHtml::sanitize(
                &template.replace("{data}", request.data),
            )),
            Some(Err(reason)) => Err(BlockRenderError::Failed {
                plugin: "in-memory".to_owned(),
                reason: reason.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::{FALLBACK_HTML, render_or_fallback};

    fn request(block_type: BlockType) -> BlockRenderRequest<'static> {
        BlockRenderRequest {
            locale: "en-GB",
            currency: "EUR",
            block_id: "b1",
            block_type,
            signed_in: false,
            page_url: "/",
            data: "42",
        }
    }

    #[test]
    fn claimed_types_render_and_failures_fall_back() {
        let renderer = InMemoryBlockRenderer::new()
            .with_html(BlockType::Chart, "<p onclick=\"x()\">{data}</p>")
            .with_failure(BlockType::TourDates, "trap");
        assert!(renderer.claims(BlockType::Chart));
        assert!(!renderer.claims(BlockType::Calendar));
        assert_eq!(
            render_or_fallback(&renderer, &request(BlockType::Chart)),
            "<p>42</p>"
        );
        assert_eq!(
            render_or_fallback(&renderer, &request(BlockType::TourDates)),
            FALLBACK_HTML
        );
        assert_eq!(
            render_or_fallback(&renderer, &request(BlockType::Calendar)),
            FALLBACK_HTML
        );
        assert_eq!(renderer.rendered(), ["b1", "b1", "b1"]);
    }
}
