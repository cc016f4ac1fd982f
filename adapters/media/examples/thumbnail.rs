//! The resize benchmark's two halves (run by `cargo xtask bench --images`):
//!
//! `thumbnail generate DIR SOURCE...` writes 20 large JPEGs (4000 x 3000) made from the
//! SOURCE images, upscaled, shifted and with deterministic grain so they compress like photos.
//!
//! `thumbnail demo WIDTH OUT SOURCE` writes SOURCE upscaled to WIDTH pixels wide as a JPEG
//! of quality 80 without grain: how the demo site's large photographs were made, small in
//! the repository since smooth pixels compress well.
//!
//! `thumbnail resize WIDTH OUT_DIR FILE...` resizes every FILE to WIDTH pixels wide as JPEG
//! through the server's pipeline, one worker per core, as `vitrine serve` does.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{ExtendedColorType, ImageEncoder, RgbImage};
use vitrine_media::{ImageLimits, OutputFormat, render_variant};

const COUNT: usize = 20;
const WIDTH: u32 = 4000;
const HEIGHT: u32 = 3000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate") if args.len() >= 3 => generate(Path::new(&args[1]), &args[2..]),
        Some("demo") if args.len() == 4 => {
            let width: u32 = args[1].parse().expect("WIDTH is a number");
            demo(width, Path::new(&args[2]), Path::new(&args[3]));
        }
        Some("resize") if args.len() >= 4 => {
            let width: u32 = args[1].parse().expect("WIDTH is a number");
            resize(width, Path::new(&args[2]), &args[3..]);
        }
        _ => {
            eprintln!(
                "usage: thumbnail generate DIR SOURCE... | thumbnail resize WIDTH OUT_DIR FILE..."
            );
            std::process::exit(2);
        }
    }
}

fn generate(dir: &Path, sources: &[String]) {
    std::fs::create_dir_all(dir).expect("the output directory can be made");
    let sources: Vec<RgbImage> = sources
        .iter()
        .map(|path| {
            image::open(path)
                .expect("a readable source image")
                .into_rgb8()
        })
        .collect();
    let mut state = 0x9e37_79b9_u32;
    for index in 0..COUNT {
        let source = &sources[index % sources.len()];
        // Each copy is cropped differently before upscaling, so no two files are alike.
        let shift = (index as u32 * 7) % (source.width() / 4).max(1);
        let crop =
            image::imageops::crop_imm(source, shift, 0, source.width() - shift, source.height())
                .to_image();
        let mut large = image::imageops::resize(&crop, WIDTH, HEIGHT, FilterType::CatmullRom);
        for pixel in large.pixels_mut() {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let grain = (state % 17) as i16 - 8;
            for channel in &mut pixel.0 {
                *channel = (i16::from(*channel) + grain).clamp(0, 255) as u8;
            }
        }
        let mut out = Vec::new();
        JpegEncoder::new_with_quality(&mut out, 90)
            .write_image(large.as_raw(), WIDTH, HEIGHT, ExtendedColorType::Rgb8)
            .expect("encoding succeeds");
        std::fs::write(dir.join(format!("large-{index:02}.jpg")), out)
            .expect("the file is written");
    }
}

fn demo(width: u32, out: &Path, source: &Path) {
    let source = image::open(source)
        .expect("a readable source image")
        .into_rgb8();
    let height = (u64::from(source.height()) * u64::from(width) / u64::from(source.width())) as u32;
    let large = image::imageops::resize(&source, width, height, FilterType::CatmullRom);
    let mut bytes = Vec::new();
    JpegEncoder::new_with_quality(&mut bytes, 80)
        .write_image(large.as_raw(), width, height, ExtendedColorType::Rgb8)
        .expect("encoding succeeds");
    std::fs::write(out, bytes).expect("the file is written");
}

fn resize(width: u32, out_dir: &Path, files: &[String]) {
    std::fs::create_dir_all(out_dir).expect("the output directory can be made");
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |cores| cores.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(file) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let bytes = std::fs::read(file).expect("a readable file");
                    let variant = render_variant(
                        &bytes,
                        Some(width),
                        OutputFormat::Jpeg,
                        &ImageLimits::default(),
                    )
                    .expect("the image resizes");
                    let name: PathBuf = Path::new(file).file_name().expect("a file name").into();
                    std::fs::write(out_dir.join(name), variant.bytes)
                        .expect("the variant is written");
                }
            });
        }
    });
}
