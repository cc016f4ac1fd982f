//! Tests of the relative times a page keeps up to date: the server's date stays for readers
//! without JavaScript and as the title, the phrase follows the clock every 5000 ms, and a time
//! older than 30 days keeps its date.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RELATIVE_TIME_REFRESH_MS } from '../generated/widget-constants';
import { RELATIVE_TIME_MAX_AGE_MS, startRelativeTimes } from './human';

const WRITTEN = Date.parse('2026-11-27T10:00:00Z');

describe('relative times on a page', () => {
  let clock = WRITTEN;
  beforeEach(() => {
    vi.useFakeTimers();
    clock = WRITTEN;
    document.body.innerHTML = `
      <time id="review" datetime="2026-11-27T10:00:00Z" data-relative>November 27, 2026</time>
      <time id="plain" datetime="2026-11-27T10:00:00Z">November 27, 2026</time>
      <time id="broken" datetime="soon" data-relative>Soon</time>`;
  });
  afterEach(() => vi.useRealTimers());

  const text = (id: string) => document.getElementById(id)!.textContent;

  it('says "just now", then counts, refreshed every 5000 ms', () => {
    clock += 2000;
    const stop = startRelativeTimes(document, 'en-US', () => clock);
    expect(text('review')).toBe('just now');
    expect(document.getElementById('review')!.title).toBe('November 27, 2026');
    expect(text('plain')).toBe('November 27, 2026');
    expect(text('broken')).toBe('Soon');

    clock += 40_000;
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS - 1);
    expect(text('review')).toBe('just now');
    vi.advanceTimersByTime(1);
    expect(text('review')).toBe('42 seconds ago');

    clock += 3 * 60 * 60 * 1000;
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS);
    expect(text('review')).toBe('3 hours ago');
    stop();
    clock += 60 * 60 * 1000;
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS);
    expect(text('review')).toBe('3 hours ago');
  });

  it("keeps the server's date past 30 days, and speaks the page's language before", () => {
    clock += RELATIVE_TIME_MAX_AGE_MS - 1000;
    startRelativeTimes(document, 'fr-FR', () => clock);
    expect(text('review')).toBe('il y a 29 jours');
    clock += 1000;
    vi.advanceTimersByTime(RELATIVE_TIME_REFRESH_MS);
    expect(text('review')).toBe('November 27, 2026');
  });
});
