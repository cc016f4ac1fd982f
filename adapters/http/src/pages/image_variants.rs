//! Image variants for `/media/` (001 s3, s9): the facts about each original (content hash and
//! header), a bounded memory cache of encoded variants over the disk cache, one computation
//! per missing variant however many requests ask for it at once (the memory cache's
//! placeholder guard), and a pool of resizes sized to the cores so a burst of distinct
//! requests queues on blocking threads instead of starving page serving.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use quick_cache::Weighter;
use quick_cache::sync::Cache;
use tokio::sync::Semaphore;
use vitrine_core::site::MediaFile;
use vitrine_media::{
    DiskCache, ImageError, ImageHeader, ImageLimits, OutputFormat, Variant, VariantKey,
    content_hash, read_header, render_variant,
};

/// Encoded variants kept in memory by default: enough for every variant of a few hundred
/// photos at phone and laptop widths.
pub const DEFAULT_MEMORY_BYTES: u64 = 64 * 1024 * 1024;
/// Resizes waiting for a worker, beyond those running, before more are refused.
pub const DEFAULT_IMAGE_QUEUE: usize = 256;
/// Originals whose refusal is remembered; past this the oldest memories are dropped together.
const MAX_REMEMBERED_FAILURES: usize = 4096;

/// What the pipeline knows of one original without decoding it.
#[derive(Debug, Clone)]
pub(crate) struct SourceFacts {
    pub(crate) hash: String,
    /// The header, or why the file is refused.
    pub(crate) header: Result<ImageHeader, ImageError>,
}

/// Why a variant could not be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum VariantError {
    /// The original is refused; the reason is for the visitor.
    Refused(ImageError),
    /// Every worker is busy and the queue is full.
    Busy,
    /// A worker thread was lost (the runtime shutting down).
    Failed,
}

#[derive(Clone)]
struct VariantWeight;

impl Weighter<VariantKey, Arc<Variant>> for VariantWeight {
    fn weight(&self, key: &VariantKey, variant: &Arc<Variant>) -> u64 {
        (variant.bytes.len() + key.hash.len() + 64) as u64
    }
}

pub struct ImageVariants {
    limits: ImageLimits,
    disk: Option<Arc<DiskCache>>,
    memory: Cache<VariantKey, Arc<Variant>, VariantWeight>,
    /// The facts of each original path, for one site revision.
    facts: RwLock<(u64, HashMap<String, Arc<SourceFacts>>)>,
    /// Originals refused while decoding, by content hash: asked again, they answer the same
    /// refusal without decoding again.
    failures: Mutex<HashMap<String, ImageError>>,
    running: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    computations: AtomicU64,
}

impl ImageVariants {
    /// Variants kept in memory only (tests, and servers without a data directory).
    pub fn in_memory() -> Self {
        Self::new(
            None,
            DEFAULT_MEMORY_BYTES,
            default_image_workers(),
            DEFAULT_IMAGE_QUEUE,
        )
    }

    /// Variants kept in `disk` as well, behind `memory_bytes` of memory, made by at most
    /// `workers` resizes at once with `queue` more waiting.
    pub fn new(disk: Option<DiskCache>, memory_bytes: u64, workers: usize, queue: usize) -> Self {
        let workers = workers.max(1);
        Self {
            limits: ImageLimits::default(),
            disk: disk.map(Arc::new),
            memory: Cache::with_weighter(1024, memory_bytes, VariantWeight),
            facts: RwLock::new((u64::MAX, HashMap::new())),
            failures: Mutex::new(HashMap::new()),
            running: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(Semaphore::new(workers + queue)),
            computations: AtomicU64::new(0),
        }
    }

    /// How many variants have been computed (decoded, resized and encoded) since start.
    pub fn computations(&self) -> u64 {
        self.computations.load(Ordering::Relaxed)
    }

    /// The facts of the original at `path` for site `revision`, when known.
    pub(crate) fn known_facts(&self, revision: u64, path: &str) -> Option<Arc<SourceFacts>> {
        let facts = self
            .facts
            .read()
            .unwrap_or_else(|poison| poison.into_inner());
        (facts.0 == revision)
            .then(|| facts.1.get(path).cloned())
            .flatten()
    }

    /// Works out and remembers the facts of `file` for site `revision`. Hashing a large
    /// original takes milliseconds, so it runs on a blocking thread.
    pub(crate) async fn learn_facts(
        &self,
        revision: u64,
        file: Arc<MediaFile>,
    ) -> Result<Arc<SourceFacts>, VariantError> {
        let limits = self.limits;
        let source = file.clone();
        let facts = tokio::task::spawn_blocking(move || SourceFacts {
            hash: content_hash(&source.bytes),
            header: read_header(&source.bytes, &limits),
        })
        .await
        .map_err(|_| VariantError::Failed)?;
        let facts = Arc::new(facts);
        let mut known = self
            .facts
            .write()
            .unwrap_or_else(|poison| poison.into_inner());
        if known.0 != revision {
            *known = (revision, HashMap::new());
        }
        known.1.insert(file.path.clone(), facts.clone());
        Ok(facts)
    }

    /// The variant `key` of the original `original` reads (called only when the variant is
    /// missing from memory). Concurrent calls for one key compute it once: the first holds
    /// the cache's placeholder while the others wait for its value.
    pub(crate) async fn variant(
        &self,
        key: &VariantKey,
        original: impl AsyncFnOnce() -> Result<Arc<MediaFile>, VariantError>,
    ) -> Result<Arc<Variant>, VariantError> {
        let guard = match self.memory.get_value_or_guard_async(key).await {
            Ok(variant) => return Ok(variant),
            Err(guard) => guard,
        };
        if let Some(refusal) = self.remembered_failure(&key.hash) {
            return Err(VariantError::Refused(refusal));
        }
        if let Some(variant) = self.stored_on_disk(key).await {
            let _ = guard.insert(variant.clone());
            return Ok(variant);
        }
        let file = original().await?;
        let variant = self.compute(key, file).await?;
        let _ = guard.insert(variant.clone());
        Ok(variant)
    }

    fn remembered_failure(&self, hash: &str) -> Option<ImageError> {
        self.failures
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(hash)
            .cloned()
    }

    fn remember_failure(&self, hash: &str, error: ImageError) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() >= MAX_REMEMBERED_FAILURES {
            failures.clear();
        }
        failures.insert(hash.to_owned(), error);
    }

    async fn stored_on_disk(&self, key: &VariantKey) -> Option<Arc<Variant>> {
        let disk = self.disk.clone()?;
        let wanted = key.clone();
        let read = tokio::task::spawn_blocking(move || disk.get(&wanted))
            .await
            .ok()?;
        let bytes = match read {
            Ok(bytes) => bytes?,
            Err(error) => {
                tracing::warn!(%error, key = key.file_name(), "reading a cached variant failed");
                return None;
            }
        };
        // The size is not stored beside the bytes; nothing that answers a request needs it.
        Some(Arc::new(Variant {
            bytes,
            format: key.format,
            width: 0,
            height: 0,
        }))
    }

    async fn compute(
        &self,
        key: &VariantKey,
        file: Arc<MediaFile>,
    ) -> Result<Arc<Variant>, VariantError> {
        let Ok(_admitted) = self.admitted.clone().try_acquire_owned() else {
            return Err(VariantError::Busy);
        };
        let _running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| VariantError::Failed)?;
        self.computations.fetch_add(1, Ordering::Relaxed);
        let (limits, disk, stored_as) = (self.limits, self.disk.clone(), key.clone());
        let rendered: Result<Variant, ImageError> = tokio::task::spawn_blocking(move || {
            let variant = render_variant(&file.bytes, stored_as.width, stored_as.format, &limits)?;
            if let Some(disk) = disk
                && let Err(error) = disk.put(&stored_as, &variant.bytes)
            {
                tracing::warn!(%error, key = stored_as.file_name(), "storing a variant failed");
            }
            Ok(variant)
        })
        .await
        .map_err(|_| VariantError::Failed)?;
        match rendered {
            Ok(variant) => Ok(Arc::new(variant)),
            Err(refusal) => {
                tracing::info!(%refusal, hash = key.hash, "an image was refused");
                self.remember_failure(&key.hash, refusal.clone());
                Err(VariantError::Refused(refusal))
            }
        }
    }
}

/// One resize per core (at least 1, at most 16): a resize is pure computation.
pub fn default_image_workers() -> usize {
    std::thread::available_parallelism().map_or(2, |cores| cores.get().clamp(1, 16))
}

/// The variant key of a request for `width` pixels (`None`: full size) of the original
/// with `facts`, in `format`.
pub(crate) fn key(facts: &SourceFacts, width: Option<u32>, format: OutputFormat) -> VariantKey {
    VariantKey {
        hash: facts.hash.clone(),
        width,
        format,
    }
}
