import { afterEach, describe, expect, it, vi } from 'vitest';

import { startErrorCapture } from './error-capture';

describe('error capture', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reports uncaught errors in one debounced, capped JSON post with the crumb header', () => {
    vi.useFakeTimers();
    const fetchSpy = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchSpy);
    document.cookie = 'crumb=abc; Path=/';
    startErrorCapture(window, { website: { id: 'site' }, templateId: 't' });
    for (let i = 0; i < 25; i++) {
      window.dispatchEvent(new ErrorEvent('error', { message: `boom ${i}`, error: new Error(`boom ${i}`), filename: 'x.js', lineno: 1, colno: 2 }));
    }
    vi.advanceTimersByTime(1000);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/events/RecordJavascriptErrors');
    expect((init.headers as Record<string, string>)['X-CSRF-Token']).toBe('abc');
    const entries = JSON.parse(init.body as string) as { event: string; data: Record<string, unknown> }[];
    expect(entries).toHaveLength(10);
    expect(entries[0]!.data).toMatchObject({ websiteId: 'site', templateId: 't', message: 'boom 0', line: 1, column: 2 });
  });
});
