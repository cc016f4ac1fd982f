//! `images.ts`: the spec's image widths (001 s9) and examples of variant URLs in both size
//! formats, so the browser's image loader builds the URLs the server answers.

use std::fmt::Write;

use vitrine_core::site::{IMAGE_WIDTHS, ImageWidth, SizeFormat, variant_url};

pub fn render() -> String {
    let mut out = String::from(super::TS_HEADER);
    let widths: Vec<String> = IMAGE_WIDTHS.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "\n/** The widths images are served in, largest first (001 s9). */\nexport const IMAGE_WIDTHS = [{}] as const;",
        widths.join(", ")
    );
    out.push_str(
        "\n/** Variant URLs as the server builds them: [path, width, size format, version, url]. */\n",
    );
    out.push_str("export const VARIANT_URL_VECTORS: ReadonlyArray<readonly [string, number, 'queryString' | 'filename', string | null, string]> = [\n");
    for (path, format, version) in [
        ("/media/photo.jpg", SizeFormat::QueryString, None),
        (
            "/media/photo.jpg",
            SizeFormat::QueryString,
            Some("0123456789abcdef"),
        ),
        ("/media/photo.jpg", SizeFormat::Filename, None),
        ("/media/tote-bag.webp", SizeFormat::Filename, Some("00ff")),
    ] {
        for width in ImageWidth::all().filter(|w| matches!(w.pixels(), 100 | 1500)) {
            let url = variant_url(path, width, format, version);
            let format = match format {
                SizeFormat::QueryString => "queryString",
                SizeFormat::Filename => "filename",
            };
            let version = version.map_or_else(|| "null".to_owned(), super::ts_string);
            let _ = writeln!(
                out,
                "  [{}, {}, '{format}', {version}, {}],",
                super::ts_string(path),
                width.pixels(),
                super::ts_string(&url)
            );
        }
    }
    out.push_str("];\n");
    out
}
