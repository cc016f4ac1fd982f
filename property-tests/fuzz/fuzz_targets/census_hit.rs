//! The census `RecordHit` payload (000 s7) is whatever a page, or anyone, posts. Reading it is
//! a hit with a path the owner's report can show, or a typed refusal: never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_core::analytics::HitPayload;

fuzz_target!(|data: &str| {
    if let Ok(hit) = HitPayload::parse(data) {
        assert!(hit.page_path.starts_with('/'));
        assert!(hit.page_path.len() <= 2048);
    }
});
