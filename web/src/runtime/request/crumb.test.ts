//! Tests of crumb cookie reading, resetting and URL tagging.

import { afterEach, describe, expect, it } from 'vitest';
import { readCookie, readCrumb, resetCrumb, withCrumb } from './crumb';

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
