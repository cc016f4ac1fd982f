//! Media files of a bundle: their content type from the extension, an image's size from the
//! file's header, a check that an SVG cannot run script when opened on its own, and a check
//! that an audio file (for the audio block's tracks) holds the format its extension names.

use std::collections::BTreeMap;

use imagesize::ImageType;

use crate::bundle::BundleError;
use crate::site::{MEDIA_PREFIX, MediaFile, content_hash};

/// The largest media file a bundle may hold.
pub const MAX_MEDIA_BYTES: usize = 10_000_000;
/// The longest media file name.
const MAX_NAME_LEN: usize = 100;

/// The extensions a bundle's media may have, with their content types.
const CONTENT_TYPES: [(&str, &str); 8] = [
    ("webp", "image/webp"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("avif", "image/avif"),
    ("svg", "image/svg+xml"),
    ("ico", "image/x-icon"),
];

/// What a page's reference to an image takes from the file itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MediaFacts {
    pub width: u32,
    pub height: u32,
    /// The file's content hash, which its URLs carry as `v=`.
    pub version: String,
}

/// The extensions of audio files, which the audio block plays from the site's own origin (a
/// page's Content-Security-Policy allows media from nowhere else).
const AUDIO_TYPES: [(&str, &str); 3] = [
    ("mp3", "audio/mpeg"),
    ("ogg", "audio/ogg"),
    ("wav", "audio/wav"),
];

/// Every media file, and each image's facts, keyed by site path (`/media/<name>`).
#[derive(Debug, Default)]
pub(crate) struct MediaLibrary {
    pub files: Vec<MediaFile>,
    pub facts: BTreeMap<String, MediaFacts>,
}

impl MediaLibrary {
    pub fn read(media: &BTreeMap<&str, (&str, &[u8])>) -> Result<Self, BundleError> {
        let mut library = Self::default();
        for (name, (file, bytes)) in media {
            let (content_type, size) = inspect(name, file, bytes)?;
            let path = format!("{MEDIA_PREFIX}{name}");
            if let Some((width, height)) = size {
                let version = content_hash(bytes);
                library.facts.insert(
                    path.clone(),
                    MediaFacts {
                        width,
                        height,
                        version,
                    },
                );
            }
            library.files.push(MediaFile {
                path,
                content_type: content_type.to_owned(),
                bytes: bytes.to_vec(),
            });
        }
        Ok(library)
    }
}

/// A media file's content type, and its width and height when it is an image.
type Inspected = (&'static str, Option<(u32, u32)>);

/// The content type of one media file, and its width and height when it is an image.
fn inspect(name: &str, file: &str, bytes: &[u8]) -> Result<Inspected, BundleError> {
    let valid_name = name.len() <= MAX_NAME_LEN
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'));
    if !valid_name {
        return Err(BundleError::file(
            file,
            format!(
                "expected a file name of at most {MAX_NAME_LEN} lowercase letters, digits, \
                 '-', '_' and '.'"
            ),
        ));
    }
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .unwrap_or_default();
    let Some((_, content_type)) = CONTENT_TYPES
        .iter()
        .chain(&AUDIO_TYPES)
        .find(|(ext, _)| *ext == extension)
    else {
        let known: Vec<&str> = CONTENT_TYPES
            .iter()
            .chain(&AUDIO_TYPES)
            .map(|(ext, _)| *ext)
            .collect();
        return Err(BundleError::file(
            file,
            format!("expected one of the extensions {}", known.join(", ")),
        ));
    };
    if bytes.len() > MAX_MEDIA_BYTES {
        return Err(BundleError::file(
            file,
            format!(
                "the file has {} bytes; at most {MAX_MEDIA_BYTES} are allowed",
                bytes.len()
            ),
        ));
    }
    let size = if content_type.starts_with("audio/") {
        check_audio(file, extension, bytes)?;
        None
    } else if extension == "svg" {
        Some(svg_size(file, bytes)?)
    } else {
        Some(raster_size(file, extension, bytes)?)
    };
    Ok((content_type, size))
}

/// Refuses an audio file whose first bytes are not those of its format, so a renamed file
/// cannot be served under an audio content type.
fn check_audio(file: &str, extension: &str, bytes: &[u8]) -> Result<(), BundleError> {
    let matches = match extension {
        // An ID3 tag, or else an MPEG frame's sync bits.
        "mp3" => {
            bytes.starts_with(b"ID3")
                || (bytes.len() > 1 && bytes[0] == 0xFF && bytes[1] & 0xE0 == 0xE0)
        }
        "ogg" => bytes.starts_with(b"OggS"),
        "wav" => bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WAVE",
        _ => false,
    };
    if matches {
        Ok(())
    } else {
        Err(BundleError::file(
            file,
            format!("expected a .{extension} audio file, but the file holds another format"),
        ))
    }
}

fn raster_size(file: &str, extension: &str, bytes: &[u8]) -> Result<(u32, u32), BundleError> {
    let unreadable = || {
        BundleError::file(
            file,
            format!("expected a .{extension} image, but its header is unreadable"),
        )
    };
    let kind = imagesize::image_type(bytes).map_err(|_| unreadable())?;
    let matches = match extension {
        "webp" => kind == ImageType::Webp,
        "png" => kind == ImageType::Png,
        "jpg" | "jpeg" => kind == ImageType::Jpeg,
        "gif" => kind == ImageType::Gif,
        "avif" => matches!(kind, ImageType::Heif(_)),
        "ico" => kind == ImageType::Ico,
        _ => false,
    };
    if !matches {
        return Err(BundleError::file(
            file,
            format!("expected a .{extension} image, but the file holds another format"),
        ));
    }
    let size = imagesize::blob_size(bytes).map_err(|_| unreadable())?;
    match (u32::try_from(size.width), u32::try_from(size.height)) {
        (Ok(width), Ok(height)) if width > 0 && height > 0 => Ok((width, height)),
        _ => Err(unreadable()),
    }
}

/// An SVG's size from the `width` and `height` of its root element, or else its `viewBox`.
/// SVGs with scripts, event handlers, `javascript:` URLs or foreign objects are refused:
/// served from the site's own origin, they could run code.
fn svg_size(file: &str, bytes: &[u8]) -> Result<(u32, u32), BundleError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| BundleError::file(file, "expected an SVG image in UTF-8 text"))?;
    let lower = text.to_ascii_lowercase();
    if lower.contains("<script")
        || lower.contains("javascript:")
        || lower.contains("<foreignobject")
        || has_event_handler(&lower)
    {
        return Err(BundleError::file(
            file,
            "expected an SVG without scripts, event handlers or foreign objects",
        ));
    }
    let no_size = || {
        BundleError::file(
            file,
            "expected an <svg> element with width and height or a viewBox",
        )
    };
    let start = lower.find("<svg").ok_or_else(no_size)?;
    let end = lower[start..].find('>').ok_or_else(no_size)? + start;
    let tag = &text[start..end];
    let number = |value: &str| -> Option<u32> {
        let value = value.trim().trim_end_matches("px");
        let parsed: f64 = value.parse().ok()?;
        (parsed >= 1.0 && parsed < f64::from(u32::MAX)).then(|| parsed.round() as u32)
    };
    if let (Some(width), Some(height)) = (attribute(tag, "width"), attribute(tag, "height"))
        && let (Some(width), Some(height)) = (number(width), number(height))
    {
        return Ok((width, height));
    }
    let view_box = attribute(tag, "viewBox").ok_or_else(no_size)?;
    let parts: Vec<&str> = view_box
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|part| !part.is_empty())
        .collect();
    match parts.as_slice() {
        [_, _, width, height] => match (number(width), number(height)) {
            (Some(width), Some(height)) => Ok((width, height)),
            _ => Err(no_size()),
        },
        _ => Err(no_size()),
    }
}

/// The value of `name="..."` (or single-quoted) inside a start tag.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let mut search = 0;
    while let Some(found) = tag[search..].find(name) {
        let at = search + found;
        search = at + name.len();
        let before = tag[..at].chars().next_back();
        if !before.is_some_and(char::is_whitespace) {
            continue;
        }
        let rest = tag[search..].trim_start();
        let Some(rest) = rest.strip_prefix('=') else {
            continue;
        };
        let rest = rest.trim_start();
        let quote = rest.chars().next()?;
        if quote != '"' && quote != '\'' {
            continue;
        }
        let value = &rest[1..];
        return value.find(quote).map(|end| &value[..end]);
    }
    None
}

/// True when some attribute name starts with "on" (onload, onclick ...).
fn has_event_handler(lower: &str) -> bool {
    let bytes = lower.as_bytes();
    lower.match_indices("on").any(|(at, _)| {
        let after_space = at > 0 && bytes[at - 1].is_ascii_whitespace();
        let name_len = bytes[at + 2..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let rest = lower[at + 2 + name_len..].trim_start();
        after_space && name_len > 0 && rest.starts_with('=')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3x2 PNG: the signature and an IHDR chunk are all a size probe reads.
    fn tiny_png() -> Vec<u8> {
        let mut png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
        png.extend_from_slice(&[0, 0, 0, 13]);
        png.extend_from_slice(b"IHDR");
        png.extend_from_slice(&3u32.to_be_bytes());
        png.extend_from_slice(&2u32.to_be_bytes());
        png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
        png
    }

    #[test]
    fn raster_sizes_come_from_the_header() {
        let png = tiny_png();
        assert_eq!(
            inspect("dot.png", "media/dot.png", &png).unwrap(),
            ("image/png", Some((3, 2)))
        );
        let error = inspect("dot.webp", "media/dot.webp", &png).unwrap_err();
        assert_eq!(
            error.to_string(),
            "media/dot.webp: expected a .webp image, but the file holds another format"
        );
    }

    #[test]
    fn svg_sizes_come_from_attributes_or_the_view_box() {
        let sized = br#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40px"></svg>"#;
        assert_eq!(svg_size("logo.svg", sized).unwrap(), (120, 40));
        let boxed = br#"<svg stroke-width="2" viewBox="0 0 240 80"></svg>"#;
        assert_eq!(svg_size("logo.svg", boxed).unwrap(), (240, 80));
    }

    #[test]
    fn scripted_svgs_are_refused() {
        for svg in [
            &br#"<svg viewBox="0 0 1 1"><script>x()</script></svg>"#[..],
            br#"<svg viewBox="0 0 1 1" onload ="x()"></svg>"#,
            br#"<svg viewBox="0 0 1 1"><a href="javascript:x()"/></svg>"#,
        ] {
            assert!(svg_size("x.svg", svg).is_err());
        }
    }

    #[test]
    fn names_and_extensions_are_checked() {
        assert!(inspect("Photo.png", "media/Photo.png", &tiny_png()).is_err());
        let error = inspect("notes.txt", "media/notes.txt", b"x").unwrap_err();
        assert_eq!(
            error.message,
            "expected one of the extensions webp, png, jpg, jpeg, gif, avif, svg, ico, mp3, ogg, wav"
        );
    }
}
