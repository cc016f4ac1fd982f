//! Variants on disk, in a folder of the data directory, one file per [`VariantKey`]. A file is
//! written under a temporary name and renamed into place, so a reader never sees half of one
//! and a crash leaves at most a stray temporary file. Content-addressed names mean an entry
//! never goes stale: a changed original has another hash.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::VariantKey;

pub struct DiskCache {
    dir: PathBuf,
    temporary: AtomicU64,
}

impl DiskCache {
    /// A cache in `dir`, created when missing.
    pub fn open(dir: impl Into<PathBuf>) -> io::Result<Self> {
        let dir = dir.into();
        std::fs::create_dir_all(&dir)?;
        Ok(Self {
            dir,
            temporary: AtomicU64::new(0),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stored bytes of `key`, if any.
    pub fn get(&self, key: &VariantKey) -> io::Result<Option<Vec<u8>>> {
        match std::fs::read(self.dir.join(key.file_name())) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Stores `bytes` as `key`.
    pub fn put(&self, key: &VariantKey, bytes: &[u8]) -> io::Result<()> {
        let serial = self.temporary.fetch_add(1, Ordering::Relaxed);
        let temporary = self.dir.join(format!(
            ".{}.{}.{serial}.tmp",
            key.file_name(),
            std::process::id()
        ));
        std::fs::write(&temporary, bytes)?;
        std::fs::rename(&temporary, self.dir.join(key.file_name())).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OutputFormat;

    #[test]
    fn a_stored_variant_reads_back_by_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let cache = DiskCache::open(dir.path().join("variants")).unwrap();
        let key = VariantKey {
            hash: "0123456789abcdef".into(),
            width: Some(500),
            format: OutputFormat::Webp,
        };
        assert_eq!(cache.get(&key).unwrap(), None);
        cache.put(&key, b"RIFF").unwrap();
        assert_eq!(cache.get(&key).unwrap().as_deref(), Some(&b"RIFF"[..]));
        assert!(
            dir.path()
                .join("variants/0123456789abcdef-500w.webp")
                .exists()
        );
    }
}
