//! Image variants under `/media/`: both size formats, `Accept` negotiation, ETags and 304,
//! hostile originals, and one computation for many concurrent requests.

use std::io::Cursor;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use image::{ImageFormat, RgbImage};
use vitrine_core::pages::PageService;
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_core::site::MediaFile;
use vitrine_http::{AppState, ImageVariants};

use crate::support::{self, Answer, send};

const CHROME_ACCEPT: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
const OLD_ACCEPT: &str = "image/png,image/*;q=0.8,*/*;q=0.5";

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let image = RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
    });
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, ImageFormat::Jpeg).unwrap();
    out.into_inner()
}

fn file(name: &str, content_type: &str, bytes: Vec<u8>) -> MediaFile {
    MediaFile {
        path: format!("/media/{name}"),
        content_type: content_type.to_owned(),
        bytes,
    }
}

/// A PNG header claiming 30,000 x 30,000 pixels: 2.7 GB once decoded.
fn bomb_png() -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&30_000u32.to_be_bytes());
    png.extend_from_slice(&30_000u32.to_be_bytes());
    png.extend_from_slice(&[8, 2, 0, 0, 0, 0, 0, 0, 0]);
    png
}

struct Fixture {
    router: Router,
    variants: Arc<ImageVariants>,
    photo: Vec<u8>,
}

async fn fixture() -> Fixture {
    let photo = jpeg(1200, 800);
    let mut site = support::site();
    let whole = jpeg(640, 480);
    site.media.extend([
        file("photo.jpg", "image/jpeg", photo.clone()),
        file("bomb.png", "image/png", bomb_png()),
        file("truncated.jpg", "image/jpeg", whole[..200].to_vec()),
        file(
            "fake.jpg",
            "image/jpeg",
            b"<html>not a picture</html>".to_vec(),
        ),
        file("exact-500w.jpg", "image/jpeg", jpeg(40, 30)),
    ]);
    let repository = Arc::new(MemorySiteRepository::new());
    repository.replace_site(&site).await.unwrap();
    let repository: Arc<dyn SiteRepository> = repository;
    let pages = Arc::new(PageService::new(repository.clone()));
    let variants = Arc::new(ImageVariants::in_memory());
    let state = AppState::new(
        pages,
        repository,
        Arc::new(support::fixture_assets()),
        support::config(),
    )
    .with_image_variants(variants.clone());
    Fixture {
        router: vitrine_http::router(state),
        variants,
        photo,
    }
}

async fn get(router: &Router, path: &str, accept: &str) -> Answer {
    let request = Request::get(path)
        .header("accept", accept)
        .body(Body::empty())
        .unwrap();
    send(router, request).await
}

fn size_of(answer: &Answer) -> (u32, u32, ImageFormat) {
    let format = image::guess_format(&answer.body).unwrap();
    let image = image::load_from_memory(&answer.body).unwrap();
    (image.width(), image.height(), format)
}

#[tokio::test]
async fn every_width_in_both_size_formats_is_served_no_wider_than_the_original() {
    let fixture = fixture().await;
    for (width, expected) in [
        (2500, 1200),
        (1500, 1200),
        (1000, 1000),
        (750, 750),
        (500, 500),
        (300, 300),
        (100, 100),
    ] {
        for path in [
            format!("/media/photo.jpg?format={width}w"),
            format!("/media/photo-{width}w.jpg"),
        ] {
            let answer = get(&fixture.router, &path, OLD_ACCEPT).await;
            assert_eq!(answer.status, StatusCode::OK, "{path}");
            assert_eq!(answer.header("content-type"), "image/jpeg", "{path}");
            assert_eq!(size_of(&answer).0, expected, "{path}");
            assert_eq!(answer.header("vary"), "Accept", "{path}");
        }
    }
    // Wider than the original in the original's format: the original's own bytes.
    let answer = get(&fixture.router, "/media/photo.jpg?format=2500w", OLD_ACCEPT).await;
    assert_eq!(answer.body, fixture.photo);
}

#[tokio::test]
async fn webp_goes_to_browsers_that_accept_it_and_the_original_format_to_others() {
    let fixture = fixture().await;
    let answer = get(
        &fixture.router,
        "/media/photo.jpg?format=500w",
        CHROME_ACCEPT,
    )
    .await;
    assert_eq!(answer.header("content-type"), "image/webp");
    assert_eq!(size_of(&answer), (500, 333, ImageFormat::WebP));
    let answer = get(&fixture.router, "/media/photo.jpg?format=500w", OLD_ACCEPT).await;
    assert_eq!(size_of(&answer), (500, 333, ImageFormat::Jpeg));
    // Full size, for a WebP browser, is WebP too.
    let answer = get(
        &fixture.router,
        "/media/photo.jpg?format=original",
        CHROME_ACCEPT,
    )
    .await;
    assert_eq!(size_of(&answer), (1200, 800, ImageFormat::WebP));
}

#[tokio::test]
async fn the_etag_names_hash_width_and_format_and_answers_304_without_resizing() {
    let fixture = fixture().await;
    let first = get(
        &fixture.router,
        "/media/photo.jpg?format=300w",
        CHROME_ACCEPT,
    )
    .await;
    let etag = first.header("etag").to_owned();
    assert!(etag.ends_with("-300w-webp\""), "{etag}");
    let other = get(&fixture.router, "/media/photo.jpg?format=300w", OLD_ACCEPT).await;
    assert_ne!(other.header("etag"), etag);
    let computed = fixture.variants.computations();
    let request = Request::get("/media/photo.jpg?format=300w")
        .header("accept", CHROME_ACCEPT)
        .header("if-none-match", &etag)
        .body(Body::empty())
        .unwrap();
    let answer = send(&fixture.router, request).await;
    assert_eq!(answer.status, StatusCode::NOT_MODIFIED);
    assert!(answer.body.is_empty());
    assert_eq!(answer.header("etag"), etag);
    assert_eq!(fixture.variants.computations(), computed);
}

#[tokio::test]
async fn a_url_with_the_content_hash_is_immutable_and_one_without_revalidates() {
    let fixture = fixture().await;
    let answer = get(&fixture.router, "/media/photo.jpg?format=100w", OLD_ACCEPT).await;
    assert_eq!(answer.header("cache-control"), "public, max-age=2592000");
    let hash = answer
        .header("etag")
        .trim_matches('"')
        .split('-')
        .next()
        .unwrap()
        .to_owned();
    let path = format!("/media/photo.jpg?format=100w&v={hash}");
    let answer = get(&fixture.router, &path, OLD_ACCEPT).await;
    assert_eq!(
        answer.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    let answer = get(
        &fixture.router,
        "/media/photo.jpg?format=100w&v=0ld",
        OLD_ACCEPT,
    )
    .await;
    assert_eq!(answer.header("cache-control"), "public, max-age=2592000");
}

#[tokio::test]
async fn hostile_originals_answer_422_with_the_reason_once_and_it_is_remembered() {
    let fixture = fixture().await;
    for (path, reason) in [
        (
            "/media/bomb.png?format=500w",
            "This image is too large to resize: 30000 x 30000 pixels; at most 12000 pixels a \
             side and 50000000 pixels in all are allowed.",
        ),
        (
            "/media/truncated.jpg?format=500w",
            "This image file is damaged and cannot be read.",
        ),
        (
            "/media/fake.jpg?format=500w",
            "This file is not an image that can be resized (JPEG, PNG, WebP or GIF).",
        ),
    ] {
        for _ in 0..3 {
            let answer = get(&fixture.router, path, CHROME_ACCEPT).await;
            assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY, "{path}");
            assert_eq!(answer.text(), reason, "{path}");
        }
    }
    // The header refuses the bomb and the fake; the truncated file is refused by its decoder
    // once, then from memory.
    assert_eq!(fixture.variants.computations(), 1);
    let answer = get(&fixture.router, "/media/truncated-300w.jpg", CHROME_ACCEPT).await;
    assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(fixture.variants.computations(), 1);
}

#[tokio::test]
async fn unknown_sizes_are_refused_and_files_named_like_variants_still_serve() {
    let fixture = fixture().await;
    let answer = get(&fixture.router, "/media/photo.jpg?format=640w", OLD_ACCEPT).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(answer.text().starts_with("Unknown image size '640w'"));
    let answer = get(&fixture.router, "/media/exact-500w.jpg", OLD_ACCEPT).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(size_of(&answer).0, 40);
    let answer = get(&fixture.router, "/media/missing-500w.jpg", OLD_ACCEPT).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    let answer = get(
        &fixture.router,
        "/media/missing.jpg?format=500w",
        OLD_ACCEPT,
    )
    .await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn many_concurrent_requests_for_one_missing_variant_compute_it_once() {
    let fixture = fixture().await;
    let requests = (0..32).map(|_| {
        let router = fixture.router.clone();
        tokio::spawn(
            async move { get(&router, "/media/photo.jpg?format=750w", CHROME_ACCEPT).await },
        )
    });
    let answers = futures_join(requests).await;
    let first = &answers[0].body;
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(&answer.body, first);
    }
    assert_eq!(fixture.variants.computations(), 1);
}

async fn futures_join(
    handles: impl Iterator<Item = tokio::task::JoinHandle<Answer>>,
) -> Vec<Answer> {
    let mut answers = Vec::new();
    for handle in handles.collect::<Vec<_>>() {
        answers.push(handle.await.unwrap());
    }
    answers
}
