//! Tests of crumb cookie reading, resetting, URL tagging, and obtaining a crumb a page lacks.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { obtainCrumb, readCookie, readCrumb, resetCrumb, sendWithCrumb, withCrumb } from './crumb';

const BASE = 'https://shop.example/products/';

afterEach(() => resetCrumb(document));

describe('crumb', () => {
  it('reads the crumb cookie among others', () => {
    document.cookie = 'ss_cvr=abc; path=/';
    document.cookie = 'crumb=Bx%2F12; path=/';
    expect(readCrumb(document)).toBe('Bx/12');
    expect(readCookie(document, 'ss_cvr')).toBe('abc');
    expect(readCookie(document, 'missing')).toBeUndefined();
  });

  it('reads the __Host- crumb a server behind TLS issues, before a stray plain one', () => {
    expect(readCrumb({ cookie: 'ss_cvr=abc; __Host-crumb=tls1' })).toBe('tls1');
    expect(readCrumb({ cookie: 'crumb=planted; __Host-crumb=tls2' })).toBe('tls2');
    expect(readCrumb({ cookie: 'crumb=dev' })).toBe('dev');
    expect(readCrumb({ cookie: '__Host-crumb=' })).toBeUndefined();
  });

  it('expires both names on a reset', () => {
    const written: string[] = [];
    resetCrumb({
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        written.push(value);
      },
    });
    expect(written).toEqual([
      'crumb=; Max-Age=0; Path=/; SameSite=Lax',
      '__Host-crumb=; Max-Age=0; Path=/; Secure; SameSite=Lax',
    ]);
  });

  it('is gone after a reset', () => {
    document.cookie = 'crumb=abc; path=/';
    resetCrumb(document);
    expect(readCrumb(document)).toBeUndefined();
  });

  it('adds the crumb query parameter to relative and absolute URLs', () => {
    expect(withCrumb('/api/form/FormSubmissionKey', 'c1', BASE)).toBe('/api/form/FormSubmissionKey?crumb=c1');
    expect(withCrumb('/api/x?a=1#top', 'c 2', BASE)).toBe('/api/x?a=1&crumb=c+2#top');
    expect(withCrumb('https://secure.example/api/x', 'c3', BASE)).toBe('https://secure.example/api/x?crumb=c3');
  });

  it('leaves the URL alone without a crumb', () => {
    expect(withCrumb('/api/x?a=1', undefined, BASE)).toBe('/api/x?a=1');
  });
});

describe('obtaining a crumb', () => {
  const issuing = () =>
    vi.fn(async (url: string, init: RequestInit) => {
      void init;
      if (url === '/api/crumb') document.cookie = 'crumb=issued; path=/';
      return new Response(null, { status: 204 });
    });

  it('keeps the crumb a page has without asking', async () => {
    document.cookie = 'crumb=had; path=/';
    const fetcher = issuing();
    await expect(obtainCrumb(document, fetcher)).resolves.toBe('had');
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('asks the crumb endpoint once for calls made at once', async () => {
    const fetcher = issuing();
    const crumbs = await Promise.all([obtainCrumb(document, fetcher), obtainCrumb(document, fetcher)]);
    expect(crumbs).toEqual(['issued', 'issued']);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0]?.[1]).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
  });

  it('resolves to no crumb when the endpoint cannot be reached', async () => {
    const fetcher = vi.fn(async () => Promise.reject(new TypeError('offline')));
    await expect(obtainCrumb(document, fetcher)).resolves.toBeUndefined();
  });

  it('sends at once with a crumb, and after obtaining one without', async () => {
    const fetcher = issuing();
    const win = { document, location: { href: BASE }, fetch: fetcher } as unknown as Window & typeof globalThis;
    const sent: string[] = [];
    sendWithCrumb(win, '/api/census/RecordHit', (url) => sent.push(url));
    expect(sent).toEqual([]);
    await vi.waitFor(() => expect(sent).toEqual(['/api/census/RecordHit?crumb=issued']));
    sendWithCrumb(win, '/api/census/RecordHit', (url) => sent.push(url));
    expect(sent).toHaveLength(2);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
