//! The signed-in owner on the live site (000 s2, s3, s6): the account's part of the page context
//! fetched after load (pages stay cacheable), the redirect to the configuration area with its
//! exceptions decided by the server, and the keyboard shortcuts: Escape opens
//! `/config/?frameUrl=...` when an account is signed in or the site turned useEscapeKeyToLogin on,
//! Shift+Escape logs out. Escape reaches these only when no close target is registered: the
//! runtime's Escape registry closes the topmost dialog or overlay first. A chunk of its own, which
//! the common script fetches only when the hint cookie says someone may be signed in
//! (`owner-hint.ts`).

import { BANNER_SELECTOR } from '../consent/banner-markup';
import { POPUP_SELECTOR } from '../popup/popup-markup';
import type { EscapeRegistry } from '../runtime/escape-registry';
import { PermissionCode } from '../generated/enums';
import type { AdminChannel } from './admin-channel';
import { writePageContext, type PageContext } from '../runtime/page-context';
import { obtainCrumb, withCrumb } from '../runtime/request/crumb';
import { configUrl, escapeKeyToLogin, framePath, mayBeSignedIn } from './owner-hint';

export { OWNER_HINT_COOKIE, configUrl, framePath, mayBeSignedIn } from './owner-hint';

export const OWNER_CONTEXT_PATH = '/api/owner/context';
export const LOGOUT_PATH = '/api/auth/Logout';
/** Where `noredirect` is remembered for the browser session (000 s2). */
export const NO_REDIRECT_KEY = 'vitrine-noredirect';

/** The account's part of the page context, as `GET /api/owner/context` answers it. */
export interface OwnerContext {
  authenticatedAccount: { id: string } | null;
  websiteRoles: Record<string, number>;
  permissions: number[];
  showAnnouncementBar: boolean;
  ownerExtras: boolean;
  csrfToken: string | null;
  configUrl: string;
  redirectTo: string | null;
  reservationPreviewAlert: string | null;
}

/** Where the page goes after a logout: the same page with `logout=true`. */
export function afterLogoutUrl(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  const params = new URLSearchParams(location.search);
  params.set('logout', 'true');
  return `${location.pathname}?${params.toString()}${location.hash}`;
}

/** Remembers `noredirect` for the browser session; true when this session has seen it. */
export function rememberNoRedirect(win: Window): boolean {
  const present = new URLSearchParams(win.location.search).has('noredirect');
  try {
    if (present) win.sessionStorage.setItem(NO_REDIRECT_KEY, '1');
    return present || win.sessionStorage.getItem(NO_REDIRECT_KEY) === '1';
  } catch {
    // Storage refused (a privacy mode): the parameter itself still counts.
    return present;
  }
}

function inFrame(win: Window): boolean {
  try {
    return win.self !== win.top;
  } catch {
    // A cross-origin parent cannot be read: the page is framed.
    return true;
  }
}

/** Asks the server for the signed-in account's context; undefined when it cannot be had. */
export async function fetchOwnerContext(win: Window & typeof globalThis): Promise<OwnerContext | undefined> {
  const query = new URLSearchParams({
    path: framePath(win.location),
    inFrame: String(inFrame(win)),
    noredirect: String(rememberNoRedirect(win)),
  });
  try {
    const response = await win.fetch(`${OWNER_CONTEXT_PATH}?${query.toString()}`, {
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (!response.ok) return undefined;
    return (await response.json()) as OwnerContext;
  } catch {
    return undefined;
  }
}

/** The page context with the account's part in it (000 s3). */
export function withOwner(context: PageContext, owner: OwnerContext | undefined): PageContext {
  if (owner?.authenticatedAccount == null) return context;
  return {
    ...context,
    authenticatedAccount: owner.authenticatedAccount,
    websiteRoles: owner.websiteRoles,
    showAnnouncementBar: owner.showAnnouncementBar,
  };
}

/** The admin broadcast channel of this tab, once opened (admin permission only). */
let adminChannel: Promise<AdminChannel | undefined> = Promise.resolve(undefined);

/** Logs the owner out and goes to this page with `logout=true`; a no-op without an account. */
export async function logout(win: Window & typeof globalThis, owner: OwnerContext | undefined): Promise<void> {
  if (owner?.authenticatedAccount == null) return;
  const crumb = await obtainCrumb(win.document, (url, init) => win.fetch(url, init));
  const response = await win.fetch(withCrumb(LOGOUT_PATH, crumb, win.location.href), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'X-Owner-CSRF-Token': owner.csrfToken ?? '' },
  });
  if (!response.ok) return;
  // The admin's other tabs are signed out too (same cookies): they reload as the visitor's page.
  (await adminChannel)?.send({ kind: 'signed-out' });
  win.location.assign(afterLogoutUrl(win.location));
}

/** Installs Escape and Shift+Escape as the registry's behaviour when no target is open. */
export function installOwnerShortcuts(
  win: Window & typeof globalThis,
  escape: EscapeRegistry,
  owner: OwnerContext | undefined,
  useEscapeKeyToLogin: boolean,
): void {
  const signedIn = owner?.authenticatedAccount != null;
  escape.setFallback((event) => {
    if (event.shiftKey) {
      if (signedIn) void logout(win, owner);
      return;
    }
    if (signedIn || useEscapeKeyToLogin) win.location.assign(configUrl(framePath(win.location)));
  });
}

/**
 * Detached copies of the page's popup overlay and cookie banner as the server rendered them, for
 * the overlays manager: taken before the visitor's runtime starts, since an answered banner
 * removes itself at once.
 */
export function snapshotOverlays(doc: Document): DocumentFragment {
  const snapshot = doc.createDocumentFragment();
  for (const element of doc.querySelectorAll(`${POPUP_SELECTOR}, ${BANNER_SELECTOR}`)) snapshot.append(element.cloneNode(true));
  return snapshot;
}

/**
 * Starts the owner's side of the live site, then `next` (consent and analytics, which must know
 * whether an owner is signed in before counting the view). Without the hint cookie nobody is
 * signed in and nothing is asked of the server.
 */
export async function startOwner(
  win: Window & typeof globalThis,
  escape: EscapeRegistry,
  context: PageContext,
  next: () => void,
): Promise<void> {
  const useEscapeKeyToLogin = escapeKeyToLogin(context);
  const owner = mayBeSignedIn(win.document) ? await fetchOwnerContext(win) : undefined;
  if (owner?.redirectTo != null) {
    win.location.replace(owner.redirectTo);
    return;
  }
  if (owner?.authenticatedAccount != null) writePageContext(win.document, withOwner(context, owner));
  installOwnerShortcuts(win, escape, owner, useEscapeKeyToLogin);
  // Only a signed-in account fetches the admin tools' chunk; it opens the channel (and the mouse
  // tracking it reads) for the admin permission alone (001 s6).
  if (owner?.authenticatedAccount != null && owner.permissions.includes(PermissionCode.Admin)) {
    const account = owner;
    adminChannel = import('./admin-channel').then((admin) => admin.startAdminChannel(win, account));
  }
  // Not inside a frame: the owner area's preview shows the page as visitors see it.
  if (owner?.showAnnouncementBar === true && !inFrame(win)) {
    void import('./announcement-bar').then((bar) => bar.showAnnouncementBar(win, owner));
  }
  // The overlays manager (000 s1) copies the page's overlays now, before the visitor's runtime
  // starts and a banner already answered removes itself.
  if (owner?.ownerExtras === true && !inFrame(win)) {
    const snapshot = snapshotOverlays(win.document);
    void import('./overlays-manager').then((manager) => manager.showOverlaysManager(win, escape, manager.collectOverlays(snapshot)));
  }
  // A signed-in owner sees table-reservation blocks as a preview, with the server's alert.
  const previewAlert = owner?.reservationPreviewAlert;
  if (previewAlert != null && win.document.querySelector('[data-reservation]') !== null) {
    void import('./reservation-preview').then((preview) => preview.showReservationPreview(win.document, previewAlert));
  }
  next();
}
