//! Tests of query strings and request bodies.

import { describe, expect, it } from 'vitest';
import { appendQuery, encodeBody } from './encoding';

describe('request encoding', () => {
  it('appends data to the query string, keeping parameters and hash', () => {
    expect(appendQuery('/api/track/Track', { landing: '/home', lang: 'en-US' })).toBe(
      '/api/track/Track?landing=%2Fhome&lang=en-US',
    );
    expect(appendQuery('/search?q=1#r', { page: 2 })).toBe('/search?q=1&page=2#r');
    expect(appendQuery('/x', undefined)).toBe('/x');
    expect(appendQuery('/x', { skipped: undefined, none: null })).toBe('/x');
  });

  it('form-encodes a body, sending nested objects as JSON text', () => {
    const encoded = encodeBody({ widgetJSON: { type: 1, id: 'b1' }, event: 'view' }, 'form');
    expect(encoded.contentType).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(new URLSearchParams(encoded.body).get('widgetJSON')).toBe('{"type":1,"id":"b1"}');
    expect(new URLSearchParams(encoded.body).get('event')).toBe('view');
  });

  it('JSON-encodes a body', () => {
    const encoded = encodeBody({ buttonText: 'Buy', newWindow: false }, 'json');
    expect(encoded.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(encoded.body)).toEqual({ buttonText: 'Buy', newWindow: false });
  });
});
