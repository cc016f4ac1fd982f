use image::ImageFormat;
use vitrine_media::{ImageLimits, OutputFormat, read_header, render_variant};

use crate::fixtures::{flat_jpeg, jpeg, jpeg_with_orientation, png_rgba, read_back};

fn render(bytes: &[u8], width: Option<u32>, format: OutputFormat) -> vitrine_media::Variant {
    render_variant(bytes, width, format, &ImageLimits::default()).unwrap()
}

#[test]
fn a_large_jpeg_shrinks_to_the_width_asked_for_keeping_its_shape() {
    let original = jpeg(3000, 2000);
    let variant = render(&original, Some(500), OutputFormat::Jpeg);
    assert_eq!((variant.width, variant.height), (500, 333));
    assert_eq!(read_back(&variant.bytes), (500, 333, ImageFormat::Jpeg));
    assert!(variant.bytes.len() < original.len() / 10);
}

#[test]
fn webp_is_written_when_asked_for() {
    let variant = render(&jpeg(1600, 900), Some(750), OutputFormat::Webp);
    assert_eq!(read_back(&variant.bytes), (750, 422, ImageFormat::WebP));
}

#[test]
fn a_width_above_the_original_gives_the_original_size_never_an_upscale() {
    let variant = render(&jpeg(800, 600), Some(2500), OutputFormat::Jpeg);
    assert_eq!((variant.width, variant.height), (800, 600));
}

#[test]
fn exif_orientation_turns_the_variant_upright() {
    // Stored landscape, shown portrait (orientation 6: rotate 90 degrees clockwise).
    let variant = render(
        &jpeg_with_orientation(400, 200, 6),
        Some(100),
        OutputFormat::Jpeg,
    );
    assert_eq!(read_back(&variant.bytes), (100, 200, ImageFormat::Jpeg));
    let variant = render(
        &jpeg_with_orientation(400, 200, 3),
        Some(100),
        OutputFormat::Png,
    );
    assert_eq!(read_back(&variant.bytes), (100, 50, ImageFormat::Png));
}

#[test]
fn metadata_is_stripped_from_variants() {
    let icc = moxcms::ColorProfile::new_display_p3().encode().unwrap();
    let original = jpeg_with_orientation(400, 200, 6);
    let variant = render(&original, Some(300), OutputFormat::Jpeg);
    assert!(original.windows(4).any(|w| w == b"Exif"));
    assert!(!variant.bytes.windows(4).any(|w| w == b"Exif"));
    let tagged = flat_jpeg(64, 64, [200, 100, 50], Some(icc));
    assert!(tagged.windows(11).any(|w| w == b"ICC_PROFILE"));
    let variant = render(&tagged, Some(100), OutputFormat::Jpeg);
    assert!(!variant.bytes.windows(11).any(|w| w == b"ICC_PROFILE"));
}

#[test]
fn a_display_p3_image_is_converted_to_srgb() {
    let icc = moxcms::ColorProfile::new_display_p3().encode().unwrap();
    let colour = [200, 100, 50];
    let untagged = render(
        &flat_jpeg(64, 64, colour, None),
        Some(100),
        OutputFormat::Png,
    );
    let tagged = render(
        &flat_jpeg(64, 64, colour, Some(icc)),
        Some(100),
        OutputFormat::Png,
    );
    let centre = |bytes: &[u8]| {
        let image = image::load_from_memory(bytes).unwrap().into_rgb8();
        image.get_pixel(32, 32).0
    };
    let (plain, converted) = (centre(&untagged.bytes), centre(&tagged.bytes));
    // P3's red is redder than sRGB's: shown in sRGB, the same numbers need more red.
    assert!(
        converted[0] > plain[0] + 10,
        "untagged {plain:?}, from P3 {converted:?}"
    );
}

#[test]
fn transparency_survives_in_webp_and_png() {
    let original = png_rgba(600, 300);
    for format in [OutputFormat::Webp, OutputFormat::Png] {
        let variant = render(&original, Some(300), format);
        let image = image::load_from_memory(&variant.bytes).unwrap();
        assert!(image.color().has_alpha(), "{format:?}");
        assert_eq!((image.width(), image.height()), (300, 150));
    }
}

#[test]
fn the_header_is_read_without_decoding() {
    let header = read_header(&jpeg(1234, 567), &ImageLimits::default()).unwrap();
    assert_eq!(
        (header.width, header.height, header.animated),
        (1234, 567, false)
    );
}
