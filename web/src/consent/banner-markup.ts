//! What the common script knows of the server-rendered cookie banner without its behaviour: where
//! it is, the policy its markup carries, whether it still waits for an answer, and the event a
//! decision fires. The banner's behaviour (`cookie-banner.ts`) is a chunk of its own, fetched only
//! by a page whose banner waits for an answer.

import { readCookie } from '../runtime/request/crumb';
import { CONSENT_COOKIE, clearingAssignments, type ConsentPolicy } from './consent-state';

export const BANNER_SELECTOR = '[data-vitrine-cookie-banner]';
/** Fired on `window` after a decision, so the popup and analytics can react. */
export const CONSENT_EVENT = 'vitrine:consent';

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

/** True while a banner waits for the visitor's decision. */
export function bannerPending(doc: Document): boolean {
  const banner = doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  return banner !== null && !banner.hidden;
}

/**
 * Removes a banner the visitor already answered (a consent cookie exists), clearing the tracking
 * cookies a decline or an absolute policy forbids; true when it did.
 */
export function removeAnsweredBanner(win: Window, banner: HTMLElement): boolean {
  const stored = readCookie(win.document, CONSENT_COOKIE);
  if (stored === undefined) return false;
  if (stored !== 'true' || policyOf(banner).absolute) clearTrackingCookies(win);
  banner.remove();
  return true;
}
