//! Precompression: gzip and brotli copies made once (an asset when the store is built, a page
//! when it enters the page cache), so serving a compressed body costs no more than the original.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;

/// Brotli's best setting in release builds: assets are compressed once per process and pages
/// once per site revision, so time spent here is paid back on every request (about 0.5 s for
/// the React chunk, a few milliseconds for a page). The encoder is
/// generic, so it is compiled with this crate's optimisation level; unoptimised, the best
/// setting takes seconds, so development builds use 9, about 8% larger and ten times faster.
const BROTLI_QUALITY: i32 = if cfg!(debug_assertions) { 9 } else { 11 };
/// A 4 MiB window covers any single asset a page loads.
const BROTLI_WINDOW_LOG: i32 = 22;

/// Extensions whose content is already compressed; compressing again only wastes CPU.
const COMPRESSED_EXTENSIONS: &[&str] = &[
    "avif", "br", "bz2", "gif", "gz", "ico", "jpeg", "jpg", "mp3", "mp4", "ogg", "png", "webm",
    "webp", "woff", "woff2", "zip", "zst",
];

/// Whether compressing `path` could pay off, judged by its extension.
pub(crate) fn is_compressible(path: &str) -> bool {
    let extension = path
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase())
        .unwrap_or_default();
    !COMPRESSED_EXTENSIONS.contains(&extension.as_str())
}

/// The gzip copy, when it is smaller than the original.
pub(crate) fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 2), Compression::best());
    // Writing into a Vec cannot fail; a failure would only mean the copy is skipped.
    encoder.write_all(bytes).ok()?;
    let compressed = encoder.finish().ok()?;
    smaller(compressed, bytes)
}

/// The brotli copy, when it is smaller than the original.
pub(crate) fn brotli(bytes: &[u8]) -> Option<Vec<u8>> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY,
        lgwin: BROTLI_WINDOW_LOG,
        size_hint: bytes.len(),
        ..Default::default()
    };
    let mut compressed = Vec::with_capacity(bytes.len() / 2);
    brotli::BrotliCompress(&mut &bytes[..], &mut compressed, &params).ok()?;
    smaller(compressed, bytes)
}

fn smaller(compressed: Vec<u8>, original: &[u8]) -> Option<Vec<u8>> {
    (compressed.len() < original.len()).then_some(compressed)
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    const SCRIPT: &[u8] = b"export function hello() { return 'hello hello hello hello hello'; }\n\
        export function again() { return 'hello hello hello hello hello'; }\n";

    #[test]
    fn text_round_trips_through_both_encodings() {
        let gz = gzip(SCRIPT).expect("repetitive text shrinks");
        let mut unzipped = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut unzipped)
            .unwrap();
        assert_eq!(unzipped, SCRIPT);

        let br = brotli(SCRIPT).expect("repetitive text shrinks");
        let mut unbrotlied = Vec::new();
        brotli::BrotliDecompress(&mut &br[..], &mut unbrotlied).unwrap();
        assert_eq!(unbrotlied, SCRIPT);
    }

    #[test]
    fn copies_that_do_not_shrink_are_skipped() {
        assert_eq!(gzip(b"x"), None);
        assert_eq!(brotli(b""), None);
    }

    #[test]
    fn compressed_formats_are_recognised_by_extension() {
        assert!(is_compressible("assets/main-1a2b.js"));
        assert!(is_compressible("assets/site-1a2b.css"));
        assert!(is_compressible("assets/logo.svg"));
        assert!(!is_compressible("assets/font-1a2b.woff2"));
        assert!(!is_compressible("assets/photo.JPG"));
    }
}
