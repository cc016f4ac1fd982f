import { describe, expect, it } from 'vitest';

import { afterPageView, formatVisitorCookie, parseVisitCookie, parseVisitorCookie } from './visitor-cookie';

describe('tracking cookie formats', () => {
  it('round-trips a visitor cookie and refuses malformed ones', () => {
    const cookie = parseVisitorCookie('abc-1|10|20|30|4');
    expect(cookie).toEqual({ id: 'abc-1', firstVisitMs: 10, previousVisitMs: 20, currentVisitMs: 30, count: 4 });
    expect(formatVisitorCookie(cookie!)).toBe('abc-1|10|20|30|4');
    for (const bad of ['a|1|2|3', 'a|0|2|3|4', 'a|+1|2|3|4', 'a b|1|2|3|4', '', 'a|1|2|3|4|5']) {
      expect(parseVisitorCookie(bad)).toBeUndefined();
    }
  });

  it('validates the visit cookie', () => {
    expect(parseVisitCookie('123')).toBe(123);
    expect(parseVisitCookie('-5')).toBeUndefined();
    expect(parseVisitCookie('0')).toBeUndefined();
  });

  it('starts a new visit when the visit cookie expired', () => {
    const first = afterPageView(undefined, false, 100, () => 'v');
    expect(afterPageView(first, true, 500, () => 'x')).toBe(first);
    expect(formatVisitorCookie(afterPageView(first, false, 500, () => 'x'))).toBe('v|100|100|500|2');
  });
});
