//! The ad-pixel port and its in-memory implementation.

use std::sync::Mutex;

use async_trait::async_trait;

use super::event::ConversionEvent;

/// Why a pixel did not take the events.
#[derive(Debug, thiserror::Error)]
pub enum AdPixelError {
    /// The pixel answered, and refused (bad token, bad data); retrying will not help.
    #[error("the ad pixel refused the events: {0}")]
    Refused(String),
    /// The pixel could not be reached or failed on its side.
    #[error("the ad pixel is unavailable: {0}")]
    Unavailable(String),
}

#[async_trait]
pub trait AdPixel: Send + Sync {
    async fn send(&self, events: &[ConversionEvent]) -> Result<(), AdPixelError>;
}

/// Keeps what it was sent, for tests.
#[derive(Debug, Default)]
pub struct InMemoryAdPixel {
    sent: Mutex<Vec<ConversionEvent>>,
}

impl InMemoryAdPixel {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn sent(&self) -> Vec<ConversionEvent> {
        self.sent
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }
}

#[async_trait]
impl AdPixel for InMemoryAdPixel {
    async fn send(&self, events: &[ConversionEvent]) -> Result<(), AdPixelError> {
        self.sent
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .extend_from_slice(events);
        Ok(())
    }
}
