//! Why an image cannot be turned into a variant. The texts are shown to whoever asked for the
//! variant (the owner's browser or the `media warm` command), so they say what is wrong with
//! the file and never echo its bytes.

/// A refusal of one original image; every variant of it is refused the same way.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("This image file is too large to resize: {bytes} bytes; at most {limit} are allowed.")]
    FileTooLarge { bytes: usize, limit: usize },
    #[error(
        "This image is too large to resize: {width} x {height} pixels; at most {max_side} pixels \
         a side and {max_pixels} pixels in all are allowed."
    )]
    TooManyPixels {
        width: u64,
        height: u64,
        max_side: u32,
        max_pixels: u64,
    },
    #[error("This image needs too much memory to resize.")]
    NeedsTooMuchMemory,
    #[error("This file is not an image that can be resized (JPEG, PNG, WebP or GIF).")]
    NotAnImage,
    #[error("This image file is damaged and cannot be read.")]
    Corrupt,
}
