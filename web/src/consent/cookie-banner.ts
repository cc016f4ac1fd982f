//! The cookie banner's behaviour (000 s4) on the server-rendered markup, in plain TypeScript so
//! the banner never pulls React onto a page. Shown unless a consent cookie exists; accept and
//! decline each take one click, store the choice for 30 days, record a receipt and remove the
//! banner. A GPC signal is stored as a decline at once and the banner says so.

import { openOverlay } from '../runtime/overlay-coordinator';
import { readCookie, sendWithCrumb } from '../runtime/request/crumb';
import {
  BANNER_VERSION,
  CONSENT_COOKIE,
  clearingAssignments,
  consentCookieAssignment,
  type ConsentChoice,
  type ConsentPolicy,
} from './consent-state';

export const BANNER_SELECTOR = '[data-vitrine-cookie-banner]';
export const RECEIPTS_PATH = '/api/consent/receipts';
/** Fired on `window` after a decision, so the popup and analytics can react. */
export const CONSENT_EVENT = 'vitrine:consent';

export interface BannerHost {
  readonly window: Window & typeof globalThis;
  /** The editor's forced mode: shown, clicks ignored. */
  readonly forced?: boolean;
}

function gpcSignal(win: Window): boolean {
  return (win.navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

export function policyOf(banner: HTMLElement): ConsentPolicy {
  return {
    acceptType: banner.dataset['acceptType'] === 'OPT_IN_AND_OUT' ? 'OPT_IN_AND_OUT' : 'OPT_IN',
    restrictive: banner.dataset['restrictive'] === 'true',
    absolute: banner.dataset['restrictiveAbsolute'] === 'true',
  };
}

/** Expires every tracking cookie the page can see. */
export function clearTrackingCookies(win: Window): void {
  const doc = win.document;
  for (const assignment of clearingAssignments(doc.cookie, win.location.hostname, win.location.pathname)) {
    doc.cookie = assignment;
  }
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

/** True while a banner waits for the visitor's decision. */
export function bannerPending(doc: Document): boolean {
  const banner = doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  return banner !== null && !banner.hidden;
}

/** Starts the banner on the page; returns the banner element when it is shown. */
export function startCookieBanner(host: BannerHost): HTMLElement | undefined {
  const win = host.window;
  const doc = win.document;
  const banner = doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  if (banner === null) return undefined;
  const policy = policyOf(banner);
  const stored = readCookie(doc, CONSENT_COOKIE);
  const secure = win.location.protocol === 'https:';
  if (!host.forced && stored !== undefined) {
    if (stored !== 'true' || policy.absolute) clearTrackingCookies(win);
    banner.remove();
    return undefined;
  }
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
