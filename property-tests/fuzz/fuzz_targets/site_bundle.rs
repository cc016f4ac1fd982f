//! The site-bundle importer reads whole sites that owners write by hand (TOML, Markdown with
//! front matter, media). A bundle is either a valid site or a `BundleError` naming the file:
//! never a panic.
//!
//! Input: the bundle as one text, each file after a line `>>> PATH` (see `bundle_from_text`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_fuzz::bundle_from_text;

fuzz_target!(|input: &[u8]| {
    let files = bundle_from_text(input);
    if let Ok(site) = vitrine_core::bundle::parse(&files) {
        // What parses is a site the importer can summarise and the page service can read.
        let _ = vitrine_core::bundle::ImportSummary::of(&site);
    }
});
