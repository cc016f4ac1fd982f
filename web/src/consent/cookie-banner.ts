//! The cookie banner's behaviour (000 s4) on the server-rendered markup, in plain TypeScript so
//! the banner never pulls React onto a page. Shown unless a consent cookie exists; accept and
//! decline each take one click, store the choice for 30 days, record a receipt and remove the
//! banner. A GPC signal is stored as a decline at once and the banner says so. A chunk of its
//! own: the common script fetches it only when the page's banner waits for an answer.

import { openOverlay } from '../runtime/overlay-coordinator';
import { sendWithCrumb } from '../runtime/request/crumb';
import { BANNER_SELECTOR, CONSENT_EVENT, clearTrackingCookies, policyOf, removeAnsweredBanner } from './banner-markup';
import { BANNER_VERSION, consentCookieAssignment, type ConsentChoice } from './consent-state';

export const RECEIPTS_PATH = '/api/consent/receipts';

export interface BannerHost {
  readonly window: Window & typeof globalThis;
  /** The editor's forced mode: shown, clicks ignored. */
  readonly forced?: boolean;
}

function gpcSignal(win: Window): boolean {
  return (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

function sendReceipt(win: Window & typeof globalThis, choice: ConsentChoice, source: 'banner' | 'gpc'): void {
  const body = JSON.stringify({ choice, source });
  // A lost receipt must never block the visitor: failures are ignored.
  sendWithCrumb(win, RECEIPTS_PATH, (url) => {
    void win
      .fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body, keepalive: true })
      .catch(() => undefined);
  });
}

/** Starts the banner on the page; returns the banner element when it is shown. */
export function startCookieBanner(host: BannerHost): HTMLElement | undefined {
  const win = host.window;
  const doc = win.document;
  const banner = doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  if (banner === null) return undefined;
  if (!host.forced && removeAnsweredBanner(win, banner)) return undefined;
  const policy = policyOf(banner);
  const secure = win.location.protocol === 'https:';
  if (!host.forced && gpcSignal(win)) {
    // The signal is a decline: stored and receipted now, and the banner explains it while still
    // offering an explicit accept.
    doc.cookie = consentCookieAssignment('declined', secure);
    clearTrackingCookies(win);
    sendReceipt(win, 'declined', 'gpc');
    banner.querySelector<HTMLElement>('[data-gpc-notice]')?.removeAttribute('hidden');
  } else if (policy.restrictive || policy.absolute || policy.acceptType === 'OPT_IN') {
    clearTrackingCookies(win);
  }
  banner.dataset['bannerVersion'] = String(BANNER_VERSION);
  // The banner leads the overlay order (consent first) but is a bar, not a modal: the page stays
  // usable, automatic overlays wait for the answer, and Escape passes it by since it needs one.
  const overlay = openOverlay(win, {
    layer: 'consent',
    modal: false,
    element: banner,
    show: () => {
      banner.hidden = false;
    },
    suspend: () => undefined,
  });
  reserveSpace(doc, banner);
  banner.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLElement>('[data-consent]');
    if (button === null || button === undefined || host.forced) return;
    const choice: ConsentChoice = button.dataset['consent'] === 'accept' ? 'accepted' : 'declined';
    doc.cookie = consentCookieAssignment(choice, secure);
    if (choice === 'declined' || policy.absolute) clearTrackingCookies(win);
    sendReceipt(win, choice, 'banner');
    const hadFocus = banner.contains(doc.activeElement);
    banner.remove();
    overlay.release();
    doc.documentElement.style.removeProperty('scroll-padding-bottom');
    doc.documentElement.style.removeProperty('scroll-padding-top');
    // Focus was on the removed button: hand it to the main content rather than the page top.
    if (hadFocus) doc.getElementById('main')?.focus({ preventScroll: true });
    win.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { choice } }));
  });
  return banner;
}

/** Keeps focused elements out from under a fixed bar by padding the scroll snap area. */
function reserveSpace(doc: Document, banner: HTMLElement): void {
  const height = banner.getBoundingClientRect().height;
  if (height === 0) return;
  const side = banner.classList.contains('cookie-banner--top') ? 'scroll-padding-top' : 'scroll-padding-bottom';
  doc.documentElement.style.setProperty(side, `${Math.ceil(height) + 8}px`);
}
