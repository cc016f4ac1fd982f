//! Consent rules in the browser (000 s4, s9): the consent cookie, the tracking cookies a refusal
//! clears, and whether tracking may run. Mirrors `vitrine_core::consent`.

import { readCookie } from '../runtime/request/crumb';

export const CONSENT_COOKIE = 'ss_cookieAllowed';
/** Accept and decline are both remembered for 30 days. */
export const CONSENT_COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;
export const BANNER_VERSION = 2;
/** The tracking cookies cleared under a restrictive policy or after a refusal (000 s9). */
export const TRACKING_COOKIES = [
  'SS_MATTR',
  'SS_MID',
  'SS_lastvisit',
  'user_segment',
  'ss_cid',
  'ss_cpvisit',
  'ss_cvisit',
  'ss_cvr',
  'ss_cvt',
] as const;

export type ConsentChoice = 'accepted' | 'declined';
export type Consent = { kind: 'decided'; choice: ConsentChoice } | { kind: 'gpc-declined' } | { kind: 'undecided' };

export interface ConsentPolicy {
  readonly acceptType: 'OPT_IN' | 'OPT_IN_AND_OUT';
  readonly restrictive: boolean;
  readonly absolute: boolean;
}

/** Reads the consent cookie's value: anything but `true` or `false` is no decision. */
export function parseConsentCookie(value: string | undefined): ConsentChoice | undefined {
  if (value?.trim() === 'true') return 'accepted';
  if (value?.trim() === 'false') return 'declined';
  return undefined;
}

/** A stored decision wins over the GPC signal; without one, GPC counts as a decline. */
export function effectiveConsent(cookieValue: string | undefined, gpc: boolean): Consent {
  const choice = parseConsentCookie(cookieValue);
  if (choice !== undefined) return { kind: 'decided', choice };
  return gpc ? { kind: 'gpc-declined' } : { kind: 'undecided' };
}

/** Whether tracking cookies may exist: the same rule as the core's `tracking_cookies_allowed`. */
export function trackingAllowed(policy: ConsentPolicy, consent: Consent): boolean {
  if (policy.absolute) return false;
  switch (consent.kind) {
    case 'decided':
      return consent.choice === 'accepted';
    case 'gpc-declined':
      return false;
    case 'undecided':
      return policy.acceptType === 'OPT_IN_AND_OUT' && !policy.restrictive;
  }
}

/** The consent in force on this page. */
export function currentConsent(doc: Document, gpc: boolean): Consent {
  return effectiveConsent(readCookie(doc, CONSENT_COOKIE), gpc);
}

/** The `document.cookie` assignment that stores a decision for 30 days. */
export function consentCookieAssignment(choice: ConsentChoice, secure: boolean): string {
  const value = choice === 'accepted' ? 'true' : 'false';
  return `${CONSENT_COOKIE}=${value}; Max-Age=${CONSENT_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The assignments that expire every tracking cookie present, host-only and on the site's domain,
 * at `/` and at the page's directory (the server clears the same set on its side).
 */
export function clearingAssignments(cookieHeader: string, hostname: string, pathname: string): string[] {
  const present = new Set(cookieHeader.split(';').map((pair) => pair.split('=')[0]!.trim()));
  const paths = ['/'];
  const directory = pathname.slice(0, pathname.lastIndexOf('/'));
  if (directory !== '') paths.push(directory);
  const domains = hostname.includes('.') && !/^[\d.]+$/.test(hostname) ? ['', `; Domain=${hostname}`] : [''];
  const out: string[] = [];
  for (const name of TRACKING_COOKIES) {
    if (!present.has(name)) continue;
    for (const path of paths) {
      for (const domain of domains) out.push(`${name}=; Max-Age=0; Path=${path}${domain}`);
    }
  }
  return out;
}
