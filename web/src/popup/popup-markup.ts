//! Where the server-rendered popup overlay is, for code that must find it without its behaviour:
//! the common script fetches `popup-overlay.ts` only for a page that has one.

export const POPUP_SELECTOR = '[data-vitrine-popup-overlay]';
