//! Crafted files: each is refused with its reason, and none panics.

use vitrine_media::{ImageError, ImageLimits, OutputFormat, render_variant};

use crate::fixtures::jpeg;

fn refusal(bytes: &[u8]) -> ImageError {
    render_variant(
        bytes,
        Some(500),
        OutputFormat::Webp,
        &ImageLimits::default(),
    )
    .unwrap_err()
}

/// A real, valid PNG of 20,000 x 20,000 black pixels at one bit each: 1.2 GB once decoded to
/// RGB, from about 100 KB of zlib (a decompression bomb). Refused from the IHDR before any
/// row is inflated.
fn bomb_png() -> Vec<u8> {
    use std::io::Write;
    let (width, height) = (20_000u32, 20_000u32);
    let row = vec![0u8; 1 + width as usize / 8];
    let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    for _ in 0..height {
        zlib.write_all(&row).unwrap();
    }
    let data = zlib.finish().unwrap();
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[1, 0, 0, 0, 0]); // 1-bit greyscale
    chunk(&mut png, b"IHDR", &ihdr);
    chunk(&mut png, b"IDAT", &data);
    chunk(&mut png, b"IEND", &[]);
    png
}

fn chunk(png: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    png.extend_from_slice(&(data.len() as u32).to_be_bytes());
    png.extend_from_slice(kind);
    png.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    png.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[test]
fn a_decompression_bomb_is_refused_before_it_inflates() {
    let bomb = bomb_png();
    assert!(bomb.len() < 2_000_000, "{} bytes", bomb.len());
    assert_eq!(
        refusal(&bomb).to_string(),
        "This image is too large to resize: 20000 x 20000 pixels; at most 12000 pixels a side \
         and 50000000 pixels in all are allowed."
    );
}

#[test]
fn a_truncated_jpeg_is_refused_as_damaged() {
    let whole = jpeg(800, 600);
    for cut in [4, 100, 300] {
        assert_eq!(refusal(&whole[..cut]), ImageError::Corrupt, "cut at {cut}");
    }
    // Cut inside the compressed data: refused or shown partly (as browsers do), never a panic.
    let _ = render_variant(
        &whole[..whole.len() / 2],
        Some(100),
        OutputFormat::Jpeg,
        &ImageLimits::default(),
    );
}

#[test]
fn a_file_with_the_wrong_magic_is_not_an_image() {
    assert_eq!(
        refusal(b"<html>not a picture</html>"),
        ImageError::NotAnImage
    );
    let mut renamed = b"%PDF-1.7\n".to_vec();
    renamed.extend_from_slice(&jpeg(10, 10));
    assert_eq!(refusal(&renamed), ImageError::NotAnImage);
}

#[test]
fn a_header_that_lies_about_the_size_is_refused() {
    let mut lying = jpeg(100, 100);
    // Patch the SOF0 height to 60000 pixels, far more than the data holds.
    let sof = lying.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
    lying[sof + 5..sof + 7].copy_from_slice(&60_000u16.to_be_bytes());
    assert!(matches!(refusal(&lying), ImageError::TooManyPixels { .. }));
}

#[test]
fn random_bytes_after_a_valid_signature_never_panic() {
    let mut state = 0x2545_f491_u32;
    for length in [16, 64, 512, 4096] {
        for signature in [
            &b"\xff\xd8\xff\xe0"[..],
            b"\x89PNG\r\n\x1a\n",
            b"RIFF\0\0\0\0WEBPVP8 ",
        ] {
            let mut bytes = signature.to_vec();
            while bytes.len() < length {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                bytes.push(state as u8);
            }
            let _ = render_variant(
                &bytes,
                Some(100),
                OutputFormat::Webp,
                &ImageLimits::default(),
            );
        }
    }
}
