//! The popup overlay's display rules (000 s4): a copy of `vitrine_core::popup::decide`, tested
//! against vectors generated from it, so the browser decides exactly as the core does.

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Popup overlay settings as the page context carries them. */
export interface PopupSettings {
  readonly style: string;
  readonly version: number;
  readonly showUntilSignup: boolean;
  readonly displayFrequency: number;
  readonly enableMobile: boolean;
}

/** The stored record (001 s3). */
export interface PopupRecord {
  readonly 'date-closed'?: number | null;
  readonly version: number;
  readonly submitted: boolean;
}

export interface PageSituation {
  readonly notFound: boolean;
  readonly lockScreen: boolean;
  readonly screenshot: boolean;
  readonly mobile: boolean;
  readonly bannerPending: boolean;
  readonly nowMs: number;
}

export type PopupHideReason =
  | 'style-none'
  | 'not-found-page'
  | 'lock-screen'
  | 'screenshot'
  | 'mobile-disabled'
  | 'banner-pending'
  | 'submitted'
  | 'never-again'
  | 'recently-closed';

export type PopupDecision = { decision: 'show' } | { decision: 'hide'; reason: PopupHideReason };

const hide = (reason: PopupHideReason): PopupDecision => ({ decision: 'hide', reason });

/** Decides whether the popup opens; the checks run in the core's order. */
export function decide(settings: PopupSettings, record: PopupRecord | null, page: PageSituation): PopupDecision {
  const style = settings.style.trim();
  if (style === '' || style.toLowerCase() === 'none') return hide('style-none');
  if (page.notFound) return hide('not-found-page');
  if (page.lockScreen) return hide('lock-screen');
  if (page.screenshot) return hide('screenshot');
  if (page.mobile && !settings.enableMobile) return hide('mobile-disabled');
  if (page.bannerPending) return hide('banner-pending');
  if (record === null) return { decision: 'show' };
  if (settings.version > record.version) return { decision: 'show' };
  if (settings.showUntilSignup && record.submitted) return hide('submitted');
  const closedAt = record['date-closed'];
  if (closedAt === undefined || closedAt === null) return { decision: 'show' };
  if (settings.displayFrequency < 0) return hide('never-again');
  return page.nowMs >= closedAt + settings.displayFrequency * DAY_MS ? { decision: 'show' } : hide('recently-closed');
}
