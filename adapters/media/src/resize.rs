//! Resampling with a Lanczos3 filter (fast_image_resize, SIMD where the CPU has it), then the
//! colour profile and orientation on the smaller image.

use fast_image_resize::images::Image;
use fast_image_resize::{FilterType, PixelType, ResizeAlg, ResizeOptions, Resizer};
use image::metadata::Orientation;
use image::{DynamicImage, RgbImage, RgbaImage};
use moxcms::{ColorProfile, Layout, TransformOptions};

use crate::ImageError;
use crate::decode::Decoded;

/// Pixels ready to encode: upright, sRGB, `channels` bytes a pixel.
pub(crate) struct Upright {
    pub pixels: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub channels: u8,
}

/// Resizes `decoded` to `shown_width` pixels wide as shown (never wider than it is), converts
/// it to sRGB and turns it upright.
pub(crate) fn resize_upright(decoded: Decoded, shown_width: u32) -> Result<Upright, ImageError> {
    let (shown_w, shown_h) = decoded.shown_size();
    let target_w = shown_width.clamp(1, shown_w);
    let target_h = ((u64::from(shown_h) * u64::from(target_w) + u64::from(shown_w) / 2)
        / u64::from(shown_w))
    .max(1) as u32;
    // The size to resample to, in the stored orientation.
    let (stored_w, stored_h) = if (shown_w, shown_h) == (decoded.width, decoded.height) {
        (target_w, target_h)
    } else {
        (target_h, target_w)
    };
    let Decoded {
        pixels,
        width,
        height,
        channels,
        orientation,
        icc_profile,
    } = decoded;
    let pixel_type = if channels == 4 {
        PixelType::U8x4
    } else {
        PixelType::U8x3
    };
    let mut pixels = if (width, height) == (stored_w, stored_h) {
        pixels
    } else {
        let source = Image::from_vec_u8(width, height, pixels, pixel_type)
            .map_err(|_| ImageError::Corrupt)?;
        let mut target = Image::new(stored_w, stored_h, pixel_type);
        let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3));
        Resizer::new()
            .resize(&source, &mut target, &options)
            .map_err(|_| ImageError::Corrupt)?;
        target.into_vec()
    };
    if let Some(profile) = icc_profile {
        to_srgb(&mut pixels, channels, &profile);
    }
    let (pixels, width, height) = upright(pixels, stored_w, stored_h, channels, orientation)?;
    Ok(Upright {
        pixels,
        width,
        height,
        channels,
    })
}

/// Converts pixels described by an embedded ICC profile to sRGB, as browsers show untagged
/// images. A profile that cannot be read (or describes no RGB space) leaves the pixels as
/// they are, as a browser would show them.
fn to_srgb(pixels: &mut [u8], channels: u8, profile: &[u8]) {
    let Ok(source) = ColorProfile::new_from_slice(profile) else {
        return;
    };
    let layout = if channels == 4 {
        Layout::Rgba
    } else {
        Layout::Rgb
    };
    let Ok(transform) = source.create_transform_8bit(
        layout,
        &ColorProfile::new_srgb(),
        layout,
        TransformOptions::default(),
    ) else {
        return;
    };
    let mut converted = vec![0; pixels.len()];
    if transform.transform(pixels, &mut converted).is_ok() {
        pixels.copy_from_slice(&converted);
    }
}

fn upright(
    pixels: Vec<u8>,
    width: u32,
    height: u32,
    channels: u8,
    orientation: Orientation,
) -> Result<(Vec<u8>, u32, u32), ImageError> {
    if orientation == Orientation::NoTransforms {
        return Ok((pixels, width, height));
    }
    let mut image = if channels == 4 {
        DynamicImage::ImageRgba8(
            RgbaImage::from_raw(width, height, pixels).ok_or(ImageError::Corrupt)?,
        )
    } else {
        DynamicImage::ImageRgb8(
            RgbImage::from_raw(width, height, pixels).ok_or(ImageError::Corrupt)?,
        )
    };
    image.apply_orientation(orientation);
    let (width, height) = (image.width(), image.height());
    let pixels = if channels == 4 {
        image.into_rgba8().into_raw()
    } else {
        image.into_rgb8().into_raw()
    };
    Ok((pixels, width, height))
}
