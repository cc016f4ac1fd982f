//! Sorting a bundle's files by role: `site.toml`, collection files, item files and media.

use std::collections::BTreeMap;

use crate::bundle::BundleError;

/// The file that holds the website, its settings and its navigation.
pub(crate) const SITE_FILE: &str = "site.toml";
const COLLECTIONS_DIR: &str = "collections/";
const MEDIA_DIR: &str = "media/";
const TRANSLATIONS_DIR: &str = "translations/";

/// Whether an item file is plain TOML or Markdown with TOML front matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemFormat {
    Toml,
    Markdown,
}

/// One item file inside `collections/<collection>/`.
#[derive(Debug)]
pub(crate) struct ItemSource<'a> {
    pub file: &'a str,
    /// The file name without its extension: the item's slug.
    pub name: &'a str,
    pub format: ItemFormat,
    pub bytes: &'a [u8],
}

/// A bundle's files, sorted. Maps are keyed by the name taken from the path, so iteration
/// (and therefore import order and error order) is alphabetical and stable.
#[derive(Debug, Default)]
pub(crate) struct Sources<'a> {
    pub site: Option<&'a [u8]>,
    /// Collection name -> (file, bytes).
    pub collections: BTreeMap<&'a str, (&'a str, &'a [u8])>,
    /// Collection name -> its item files.
    pub items: BTreeMap<&'a str, Vec<ItemSource<'a>>>,
    /// Media file name -> (file, bytes).
    pub media: BTreeMap<&'a str, (&'a str, &'a [u8])>,
    /// Translation files, `translations/<name>.toml`: (file, bytes) in name order.
    pub translations: Vec<(&'a str, &'a [u8])>,
}

impl<'a> Sources<'a> {
    /// Sorts `files` by role. Hidden files (a path part starting with '.') and loose files at
    /// the top level (a README, a licence) are not part of the site and are skipped.
    pub fn classify(files: &'a BTreeMap<String, Vec<u8>>) -> Result<Self, BundleError> {
        let mut sources = Sources::default();
        for (path, bytes) in files {
            let path = path.as_str();
            let bytes = bytes.as_slice();
            if path.starts_with('/') || path.contains('\\') || path.split('/').any(|p| p == "..") {
                return Err(BundleError::file(
                    path,
                    "expected a path relative to the bundle, using '/' between folders",
                ));
            }
            if path.split('/').any(|part| part.starts_with('.')) {
                continue;
            }
            if path == SITE_FILE {
                sources.site = Some(bytes);
            } else if let Some(rest) = path.strip_prefix(COLLECTIONS_DIR) {
                sources.add_collection_file(path, rest, bytes)?;
            } else if let Some(name) = path.strip_prefix(MEDIA_DIR) {
                if name.contains('/') {
                    return Err(BundleError::file(
                        path,
                        "expected media files directly in media/, not in sub-folders",
                    ));
                }
                sources.media.insert(name, (path, bytes));
            } else if let Some(name) = path.strip_prefix(TRANSLATIONS_DIR) {
                if name.contains('/') || !name.ends_with(".toml") {
                    return Err(BundleError::file(
                        path,
                        "expected translations/<locale>.toml files directly in translations/",
                    ));
                }
                sources.translations.push((path, bytes));
            } else if path.contains('/') {
                return Err(BundleError::file(
                    path,
                    "unexpected file; a bundle holds site.toml, collections/, media/ and translations/",
                ));
            }
        }
        Ok(sources)
    }

    fn add_collection_file(
        &mut self,
        path: &'a str,
        rest: &'a str,
        bytes: &'a [u8],
    ) -> Result<(), BundleError> {
        let parts: Vec<&str> = rest.split('/').collect();
        match parts.as_slice() {
            [file] if file.ends_with(".toml") => {
                let name = &file[..file.len() - ".toml".len()];
                self.collections.insert(name, (path, bytes));
                Ok(())
            }
            [collection, file] => {
                let (name, format) = if let Some(name) = file.strip_suffix(".toml") {
                    (name, ItemFormat::Toml)
                } else if let Some(name) = file.strip_suffix(".md") {
                    (name, ItemFormat::Markdown)
                } else {
                    return Err(BundleError::file(
                        path,
                        "expected an item file ending in .toml or .md",
                    ));
                };
                self.items.entry(collection).or_default().push(ItemSource {
                    file: path,
                    name,
                    format,
                    bytes,
                });
                Ok(())
            }
            _ => Err(BundleError::file(
                path,
                "expected collections/<slug>.toml or collections/<slug>/<item>.toml or .md",
            )),
        }
    }
}

/// The text of a file, which must be UTF-8.
pub(crate) fn utf8<'b>(file: &str, bytes: &'b [u8]) -> Result<&'b str, BundleError> {
    std::str::from_utf8(bytes).map_err(|_| BundleError::file(file, "expected UTF-8 text"))
}

/// Splits a Markdown item file into its TOML front matter (between `+++` lines) and its body.
/// The front matter starts with an empty line in place of the opening fence, so TOML syntax
/// errors report the line numbers of the whole file.
pub(crate) fn front_matter(file: &str, text: &str) -> Result<(String, String), BundleError> {
    const FENCE: &str = "+++";
    let missing = || {
        BundleError::file(
            file,
            "expected the file to start with TOML front matter between two '+++' lines",
        )
    };
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(|line| line.trim_end()) != Some(FENCE) {
        return Err(missing());
    }
    let mut front = String::from("\n");
    for line in lines.by_ref() {
        if line.trim_end() == FENCE {
            let body: String = lines.collect();
            return Ok((front, body));
        }
        front.push_str(line);
    }
    Err(missing())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_matter_is_split_from_the_body() {
        let (front, body) = front_matter("a.md", "+++\ntitle = \"A\"\n+++\n\nHello\n").unwrap();
        assert_eq!(front, "\ntitle = \"A\"\n");
        assert_eq!(body, "\nHello\n");
        let error = front_matter("a.md", "title = 1").unwrap_err();
        assert_eq!(
            error.to_string(),
            "a.md: expected the file to start with TOML front matter between two '+++' lines"
        );
    }

    #[test]
    fn files_are_sorted_by_role_and_strays_refused() {
        let mut files = BTreeMap::new();
        for path in [
            "site.toml",
            "README.md",
            ".hidden/x",
            "collections/shop.toml",
            "collections/shop/mug.md",
            "media/mug.webp",
        ] {
            files.insert(path.to_owned(), Vec::new());
        }
        let sources = Sources::classify(&files).unwrap();
        assert!(sources.site.is_some());
        assert_eq!(sources.collections.keys().collect::<Vec<_>>(), [&"shop"]);
        assert_eq!(sources.items["shop"][0].format, ItemFormat::Markdown);
        assert_eq!(sources.media.keys().collect::<Vec<_>>(), [&"mug.webp"]);

        files.insert("images/x.png".to_owned(), Vec::new());
        let error = Sources::classify(&files).unwrap_err();
        assert_eq!(error.file, "images/x.png");
    }
}
