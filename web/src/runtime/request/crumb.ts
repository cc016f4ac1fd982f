//! The CSRF crumb: obtained from the server's crumb endpoint when the page has none, read from the `__Host-crumb`
//! cookie (`crumb` over plain HTTP), appended to request URLs, reset after a crumb failure.

import { CRUMB_COOKIE_NAME, CRUMB_PATH, CRUMB_QUERY_PARAMETER, HOST_CRUMB_COOKIE_NAME } from '../constants';

type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** Reads a cookie by name from `document.cookie`; undefined when absent. */
export function readCookie(doc: Pick<Document, 'cookie'>, name: string): string | undefined {
  for (const pair of doc.cookie.split(';')) {
    const separator = pair.indexOf('=');
    const key = (separator === -1 ? pair : pair.slice(0, separator)).trim();
    if (key !== name) continue;
    const raw = separator === -1 ? '' : pair.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      // A cookie written by other software may hold a stray '%'; its raw text is still the value.
      return raw;
    }
  }
  return undefined;
}

/**
 * The crumb the server issued: `__Host-crumb` over TLS, else `crumb` (plain HTTP). Over TLS the server reads only the
 * prefixed cookie, so it wins when a stray `crumb` is present too.
 */
export function readCrumb(doc: Pick<Document, 'cookie'>): string | undefined {
  const crumb = readCookie(doc, HOST_CRUMB_COOKIE_NAME) ?? readCookie(doc, CRUMB_COOKIE_NAME);
  return crumb === '' ? undefined : crumb;
}

/**
 * Forgets the crumb so the next attempt carries whatever the server sent with the crumb failure
 * (its response sets a fresh crumb cookie). The server sets the cookie on path `/`; a `__Host-` cookie can only be
 * written (here: expired) with `Secure` and no domain, which a page served over plain HTTP cannot do, and there is none.
 */
export function resetCrumb(doc: Pick<Document, 'cookie'>): void {
  doc.cookie = `${CRUMB_COOKIE_NAME}=; Max-Age=0; Path=/; SameSite=Lax`;
  doc.cookie = `${HOST_CRUMB_COOKIE_NAME}=; Max-Age=0; Path=/; Secure; SameSite=Lax`;
}

/** Returns `url` with the crumb query parameter set, or unchanged when there is no crumb. */
export function withCrumb(url: string, crumb: string | undefined, base: string): string {
  if (crumb === undefined) return url;
  const target = new URL(url, base);
  target.searchParams.set(CRUMB_QUERY_PARAMETER, crumb);
  // Same-origin calls keep a relative form so logs and messages stay short.
  return target.origin === new URL(base).origin
    ? `${target.pathname}${target.search}${target.hash}`
    : target.href;
}

/** Crumb requests in flight, one per document, so calls made at once share one. */
const pendingCrumbs = new WeakMap<Document, Promise<string | undefined>>();

/**
 * The document's crumb, first asking the crumb endpoint for one when there is none: pages carry
 * no crumb, so that a shared cache can keep them. A failed request resolves to undefined; the call
 * then fails its crumb check, whose answer sets a crumb for the request layer's retry.
 */
export function obtainCrumb(doc: Document, fetcher: Fetcher): Promise<string | undefined> {
  const present = readCrumb(doc);
  if (present !== undefined) return Promise.resolve(present);
  const pending = pendingCrumbs.get(doc);
  if (pending !== undefined) return pending;
  const request = fetcher(CRUMB_PATH, { credentials: 'same-origin', cache: 'no-store' })
    .then(
      () => readCrumb(doc),
      () => undefined,
    )
    .finally(() => pendingCrumbs.delete(doc));
  pendingCrumbs.set(doc, request);
  return request;
}

/**
 * Hands `send` the URL of `path` with the crumb: at once when the page has a crumb, once obtained
 * otherwise. For the runtime's fire-and-forget posts (analytics, consent receipts).
 */
export function sendWithCrumb(win: Window & typeof globalThis, path: string, send: (url: string) => void): void {
  const crumb = readCrumb(win.document);
  if (crumb !== undefined) {
    send(withCrumb(path, crumb, win.location.href));
    return;
  }
  void obtainCrumb(win.document, (url, init) => win.fetch(url, init)).then((obtained) =>
    send(withCrumb(path, obtained, win.location.href)),
  );
}
