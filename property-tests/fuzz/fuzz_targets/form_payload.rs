//! Form submissions (`SaveForm`, 000 s7) with whatever `form` JSON a client sends, against the
//! demo site's real forms and the core's real service over in-memory ports. A submission is
//! either stored or refused with a typed error: never a panic.
//!
//! Input: the form id on the first line, then the `form` JSON.

#![no_main]

use std::sync::{Arc, LazyLock};

use libfuzzer_sys::fuzz_target;
use vitrine_core::forms::memory::{MemoryFormStore, MemoryKeyStore, MemoryRateLimiter};
use vitrine_core::forms::submission::KEY_BYTES;
use vitrine_core::forms::{FormService, SubmitFormError, SubmitRequest};
use vitrine_core::ports::SiteRepository;
use vitrine_core::ports::memory::MemorySiteRepository;
use vitrine_fuzz::{block_on, demo_bundle};

const NOW: i64 = 1_750_000_000;

static SITE: LazyLock<Arc<dyn SiteRepository>> = LazyLock::new(|| {
    let repository = MemorySiteRepository::new();
    let site = vitrine_core::bundle::parse(&demo_bundle()).expect("the demo site parses");
    block_on(repository.replace_site(&site)).expect("an in-memory store takes it");
    Arc::new(repository)
});

fuzz_target!(|input: &str| {
    let (form_id, form_json) = input.split_once('\n').unwrap_or((input, ""));
    // Fresh stores per input, so rate limits and used keys of one input do not hide the
    // paths of the next.
    let store = Arc::new(MemoryFormStore::new());
    let forms = FormService::new(
        SITE.clone(),
        Arc::new(MemoryKeyStore::new()),
        store,
        Arc::new(MemoryRateLimiter::new()),
    );
    let key = block_on(forms.issue_key([7; KEY_BYTES], "fuzz", NOW)).expect("a key");
    let request = SubmitRequest {
        key: key.as_str().to_owned(),
        form_id: form_id.to_owned(),
        collection_id: Some("contact".to_owned()),
        object_name: String::new(),
        is_overlay_form: false,
        submit_button_text: "Send message".to_owned(),
        form_json: form_json.to_owned(),
        captcha_key: None,
        honeypot: String::new(),
        visitor: "fuzz".to_owned(),
    };
    match block_on(forms.submit(request, NOW)) {
        Ok(receipt) => assert!(!receipt.replayed, "a fresh key cannot replay"),
        Err(SubmitFormError::Store(error)) => panic!("an in-memory store failed: {error}"),
        Err(_) => {}
    }
});
