//! The common script's part of the owner on the live site (000 s2): whether someone may be signed
//! in, read from the hint cookie the server sets beside the session, and Escape for a visitor.
//! The rest of a signed-in owner's code (`live-site.ts` and the chunks it fetches) is a chunk of
//! its own, fetched only by a browser with the hint.

import type { EscapeRegistry } from '../runtime/escape-registry';
import type { PageContext } from '../runtime/page-context';
import { readCookie } from '../runtime/request/crumb';

/** The readable cookie the server sets beside the owner's session cookie. */
export const OWNER_HINT_COOKIE = 'vitrine-owner';
const CONFIG_PATH = '/config/';

/** Whether someone may be signed in: only then is the account's context worth a request. */
export function mayBeSignedIn(doc: Pick<Document, 'cookie'>): boolean {
  return readCookie(doc, OWNER_HINT_COOKIE) === '1';
}

/** The page's path and query, the frame URL of 000 s2. */
export function framePath(location: Pick<Location, 'pathname' | 'search'>): string {
  return `${location.pathname}${location.search}`;
}

/** `/config/?frameUrl={encoded path and query}`. */
export function configUrl(frame: string): string {
  return `${CONFIG_PATH}?frameUrl=${encodeURIComponent(frame)}`;
}

/** Whether the site turned `useEscapeKeyToLogin` on. */
export function escapeKeyToLogin(context: PageContext): boolean {
  const settings = context['websiteSettings'] as Record<string, unknown> | undefined;
  return settings?.['useEscapeKeyToLogin'] === true;
}

/**
 * Starts the owner's side of the live site, then `next` (consent and analytics, which must know
 * whether an owner is signed in before counting the view). Without the hint cookie nobody is
 * signed in: Escape, when no close target is registered, opens the configuration area if the
 * site turned useEscapeKeyToLogin on, `next` runs at once and nothing more is fetched.
 */
export function startOwnerSide(win: Window & typeof globalThis, escape: EscapeRegistry, context: PageContext, next: () => void): void {
  if (mayBeSignedIn(win.document)) {
    void import('./live-site').then((site) => site.startOwner(win, escape, context, next));
    return;
  }
  const useEscapeKeyToLogin = escapeKeyToLogin(context);
  escape.setFallback((event) => {
    if (!event.shiftKey && useEscapeKeyToLogin) win.location.assign(configUrl(framePath(win.location)));
  });
  next();
}
