//! Which media files only locked (password-protected or members-only) content shows, worked
//! out once per site revision: the answer reads every collection and item, far too much for
//! each image request.

use std::sync::{Arc, RwLock};

use vitrine_core::pages::PageError;
use vitrine_core::pages::access::{Lock, LockedMedia};

use crate::AppState;

#[derive(Default)]
pub(crate) struct LockedMediaCache {
    known: RwLock<Option<(u64, Arc<LockedMedia>)>>,
}

impl LockedMediaCache {
    /// The lock of the media file at `path`; none when anyone may see it.
    pub(crate) async fn lock(
        &self,
        state: &AppState,
        path: &str,
    ) -> Result<Option<Lock>, PageError> {
        let revision = state.page_cache.revision(state.repository.as_ref()).await?;
        let known = self
            .known
            .read()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone();
        let locked = match known {
            Some((at, locked)) if at == revision => locked,
            _ => {
                let locked = Arc::new(state.pages.locked_media().await?);
                *self
                    .known
                    .write()
                    .unwrap_or_else(|poison| poison.into_inner()) =
                    Some((revision, locked.clone()));
                locked
            }
        };
        Ok(locked.lock(path).cloned())
    }
}
