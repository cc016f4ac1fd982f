//! Automatic page views (000 s6, s7): who is counted, the hit payload of 000 s3, and the
//! `POST /api/census/RecordHit` call. With consent the visitor cookies are kept; without it the
//! hit goes out with no cookie and the server counts it with its cookieless daily hash.

import { readCookie, sendWithCrumb } from '../runtime/request/crumb';
import type { PageContext } from '../runtime/page-context';
import {
  VISIT_COOKIE,
  VISIT_COOKIE_MAX_AGE_SECONDS,
  VISITOR_COOKIE,
  VISITOR_COOKIE_MAX_AGE_SECONDS,
  afterPageView,
  formatVisitorCookie,
  parseVisitCookie,
  parseVisitorCookie,
} from './visitor-cookie';

export const RECORD_HIT_PATH = '/api/census/RecordHit';
/** Page types that are never counted: not found, error, lock screen, member-area access denied. */
const EXCLUDED_PAGE_TYPES = new Set([100, 101, 103, 106]);
/** The website role code of a viewer (viewers are counted like visitors). */
const VIEWER_ROLE = 'viewer';

export type Exclusion = 'census-disabled' | 'excluded-page' | 'search-page' | 'config-path' | 'owner-or-editor';

/** Whether the page turned the census off (a test or an embedding host sets this flag). */
export function censusDisabledIn(win: Window): boolean {
  return (win as unknown as { __vitrineCensusDisabled?: boolean }).__vitrineCensusDisabled === true;
}

/**
 * Why nothing this viewer does is counted, whatever the page: the census is off, or a signed-in
 * owner or editor is looking (000 s6: they are excluded from analytics). Undefined when the
 * viewer is counted.
 */
export function viewerExclusion(context: PageContext, censusDisabled: boolean): Exclusion | undefined {
  if (censusDisabled) return 'census-disabled';
  const account = context['authenticatedAccount'];
  if (account === null || account === undefined) return undefined;
  const roles = Object.keys((context['websiteRoles'] as Record<string, unknown> | undefined) ?? {});
  const viewerOnly = roles.length > 0 && roles.every((role) => role === VIEWER_ROLE);
  return viewerOnly ? undefined : 'owner-or-editor';
}

/** Why this page view is not counted, or undefined to count it. */
export function pageViewExclusion(context: PageContext, pathname: string, censusDisabled: boolean): Exclusion | undefined {
  if (censusDisabled) return 'census-disabled';
  if (EXCLUDED_PAGE_TYPES.has(Number(context['pageType']))) return 'excluded-page';
  if (pathname === '/search' || pathname === '/search/') return 'search-page';
  if (pathname === '/config' || pathname.startsWith('/config/')) return 'config-path';
  return viewerExclusion(context, false);
}

/** The hit payload of 000 s3. */
export function hitPayload(context: PageContext, win: Window, visitorCookie: string | undefined, nativeApp = false): Record<string, unknown> {
  const website = (context['website'] as Record<string, unknown> | undefined) ?? {};
  const collection = context['collection'] as Record<string, unknown> | null | undefined;
  const item = context['item'] as Record<string, unknown> | null | undefined;
  return {
    websiteId: website['id'],
    templateId: context['templateId'],
    website_locale: context['websiteLocale'],
    userAgent: win.navigator.userAgent,
    clientDate: Date.now(),
    viewportInnerWidth: win.innerWidth,
    viewportInnerHeight: win.innerHeight,
    screenWidth: win.screen.width,
    screenHeight: win.screen.height,
    url: win.location.href,
    title: win.document.title,
    itemId: context['itemId'] ?? undefined,
    recordType: item?.['recordType'] ?? undefined,
    collectionId: context['collectionId'] ?? undefined,
    pagePermissionTypeValue: collection?.['permissionType'] ?? undefined,
    visitorCookie,
    pageTitle: win.document.title,
    pageId: context['itemId'] ?? context['collectionId'] ?? undefined,
    contentSource: item ? 'i' : 'c',
    pagePath: win.location.pathname,
    // Beyond the spec's payload, for the owner's referrer list: the server keeps only the
    // referring site's host, and nothing when it is this site.
    ...(win.document.referrer === '' ? {} : { referrer: win.document.referrer }),
    // The native-app flag of the internal tracker (000 s7): the page runs inside the app or on
    // the mobile-app web platform.
    ...(nativeApp ? { nativeApp: true } : {}),
  };
}

function newVisitorId(win: Window): string {
  return win.crypto.randomUUID();
}

/** Records this page view, unless excluded. `tracking` says whether cookies may be kept. */
export function recordPageView(win: Window & typeof globalThis, context: PageContext, tracking: boolean, nativeApp = false): Exclusion | undefined {
  const exclusion = pageViewExclusion(context, win.location.pathname, censusDisabledIn(win));
  if (exclusion !== undefined) return exclusion;
  const doc = win.document;
  let visitorCookie: string | undefined;
  if (tracking) {
    const now = Date.now();
    const secure = win.location.protocol === 'https:' ? '; Secure' : '';
    const visitActive = parseVisitCookie(readCookie(doc, VISIT_COOKIE)) !== undefined;
    const cookie = afterPageView(parseVisitorCookie(readCookie(doc, VISITOR_COOKIE)), visitActive, now, () => newVisitorId(win));
    visitorCookie = formatVisitorCookie(cookie);
    doc.cookie = `${VISITOR_COOKIE}=${visitorCookie}; Max-Age=${VISITOR_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
    doc.cookie = `${VISIT_COOKIE}=${now}; Max-Age=${VISIT_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
  }
  const body = new URLSearchParams();
  body.set('event', '1');
  body.set('data', JSON.stringify(hitPayload(context, win, visitorCookie, nativeApp)));
  if (visitorCookie !== undefined) body.set('ss_cvr', visitorCookie);
  // Analytics failures are silent (000 s8).
  sendWithCrumb(win, RECORD_HIT_PATH, (url) => {
    void win.fetch(url, { method: 'POST', credentials: 'same-origin', body, keepalive: true }).catch(() => undefined);
  });
  return undefined;
}
