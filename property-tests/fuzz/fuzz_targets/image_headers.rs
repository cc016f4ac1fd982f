//! Media files in a bundle are sized from their headers (PNG, JPEG, GIF, WebP, AVIF, ICO) and
//! SVGs are checked for script, so pages can reserve space before images load. Whatever the
//! bytes, a bundle with one media file either imports or names the file: never a panic.
//!
//! Input: one byte choosing the extension, then the file's bytes.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_core::bundle::BundleFiles;

const EXTENSIONS: [&str; 8] = ["png", "jpg", "jpeg", "gif", "webp", "avif", "ico", "svg"];

const HOME: &str = r#"
type = "page"
title = "Home"

[[blocks]]
type = "image"
image = { src = "/media/picture", alt = "The picture" }
"#;

fuzz_target!(|input: &[u8]| {
    let Some((choice, bytes)) = input.split_first() else {
        return;
    };
    let extension = EXTENSIONS[usize::from(*choice) % EXTENSIONS.len()];
    let name = format!("picture.{extension}");
    let site = format!(
        "[website]\nidentifier = \"pictures\"\nbase_url = \"https://pictures.example\"\n\
         type = \"generic\"\n\n[settings]\ntitle = \"Pictures\"\nhome = \"home\"\n\
         logo = {{ src = \"/media/{name}\", alt = \"Pictures\" }}\n"
    );
    let mut files = BundleFiles::new();
    files.insert("site.toml".to_owned(), site.into_bytes());
    let home = HOME.replace("/media/picture", &format!("/media/{name}"));
    files.insert("collections/home.toml".to_owned(), home.into_bytes());
    files.insert(format!("media/{name}"), bytes.to_vec());
    if let Ok(site) = vitrine_core::bundle::parse(&files) {
        assert_eq!(site.media.len(), 1, "the one media file is kept");
    }
});
