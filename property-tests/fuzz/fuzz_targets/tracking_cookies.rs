//! The analytics cookies (`ss_cvr`, `ss_cvt`) and the consent cookie come back from browsers
//! however a visitor or a script left them. Reading one must never panic, and whatever reads
//! must write back as the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use vitrine_core::analytics::{VisitCookie, VisitorCookie};
use vitrine_core::consent::{consent_cookie_value, parse_consent_cookie};

fuzz_target!(|value: &str| {
    if let Ok(visitor) = value.parse::<VisitorCookie>() {
        let written = visitor.to_string();
        assert_eq!(written.parse::<VisitorCookie>().ok(), Some(visitor.clone()));
        // A later visit never panics, whatever times the cookie claims.
        let _ = visitor.after_page_view(false, u64::MAX);
        let _ = visitor.after_page_view(false, 0);
    }
    if let Ok(visit) = value.parse::<VisitCookie>() {
        assert_eq!(visit.to_string().parse::<VisitCookie>().ok(), Some(visit));
    }
    if let Some(choice) = parse_consent_cookie(value) {
        assert_eq!(
            parse_consent_cookie(consent_cookie_value(choice)),
            Some(choice)
        );
    }
});
