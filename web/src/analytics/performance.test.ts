import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  FLUSH_AFTER_LOAD_MS,
  METRICS_WAIT_MS,
  SETTINGS_TIMEOUT,
  SETTINGS_TIMEOUT_MS,
  UNRESOLVED_PAGE_LOAD_ID,
  startPerformanceCollector,
  type PerformanceHost,
} from './performance';

function host(settings: () => Promise<unknown>) {
  const sent: unknown[][] = [];
  const errors: string[] = [];
  let hidden: () => void = () => undefined;
  let isHidden = false;
  const value: PerformanceHost = {
    pagePath: '/shop',
    fetchSettings: settings,
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    send: (json) => sent.push(JSON.parse(json) as unknown[]),
    reportError: (message) => errors.push(message),
    onHidden: (run) => (hidden = run),
    hidden: () => isHidden,
  };
  return {
    value,
    sent,
    errors,
    hide: () => {
      isHidden = true;
      hidden();
    },
    show: () => {
      isHidden = false;
    },
  };
}

const lcp = { name: 'LCP', value: 1200, rating: 'good', id: 'v5-1' };

describe('the performance collector', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the records with their pageLoadId 30 s after load', async () => {
    const h = host(() => Promise.resolve({ pageLoadId: 'p1' }));
    const collector = startPerformanceCollector(h.value);
    await vi.advanceTimersByTimeAsync(0);
    collector.add(lcp);
    collector.add({ name: 'CLS', value: 0.02 });
    await vi.advanceTimersByTimeAsync(FLUSH_AFTER_LOAD_MS - 1);
    expect(h.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent).toEqual([
      [
        { pageLoadId: 'p1', name: 'LCP', value: 1200, rating: 'good', metricId: 'v5-1', pagePath: '/shop' },
        { pageLoadId: 'p1', name: 'CLS', value: 0.02, pagePath: '/shop' },
      ],
    ]);
    expect(h.errors).toEqual([]);
  });

  it('flushes when the page is hidden, and keeps records until the pageLoadId arrives', async () => {
    let resolve!: (body: unknown) => void;
    const h = host(() => new Promise((r) => (resolve = r)));
    const collector = startPerformanceCollector(h.value);
    collector.add(lcp);
    h.hide();
    expect(h.sent).toEqual([]);
    resolve({ pageLoadId: 'p2' });
    await vi.advanceTimersByTimeAsync(0);
    h.hide();
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]).toMatchObject([{ pageLoadId: 'p2', name: 'LCP' }]);
    // A final value reported after the hidden flush (as web-vitals does) is sent at once.
    collector.add({ name: 'CLS', value: 0.1 });
    expect(h.sent[1]).toMatchObject([{ pageLoadId: 'p2', name: 'CLS' }]);
    h.show();
    collector.add({ name: 'INP', value: 40 });
    expect(h.sent).toHaveLength(2);
  });

  it('waits at most 60 s for metrics', async () => {
    const h = host(() => Promise.resolve({ pageLoadId: 'p3' }));
    const collector = startPerformanceCollector(h.value);
    await vi.advanceTimersByTimeAsync(FLUSH_AFTER_LOAD_MS + 1);
    collector.add({ name: 'INP', value: 80 });
    await vi.advanceTimersByTimeAsync(METRICS_WAIT_MS - FLUSH_AFTER_LOAD_MS);
    expect(h.sent).toEqual([[{ pageLoadId: 'p3', name: 'INP', value: 80, pagePath: '/shop' }]]);
    collector.add({ name: 'CLS', value: 0.5 });
    h.hide();
    expect(h.sent).toHaveLength(1);
    expect(collector.pending()).toBe(0);
  });

  it("reports 'Metric settings request timeout' after 30 s without settings, and sends nothing", async () => {
    const h = host(() => new Promise(() => undefined));
    const collector = startPerformanceCollector(h.value);
    collector.add(lcp);
    await vi.advanceTimersByTimeAsync(SETTINGS_TIMEOUT_MS - 1);
    expect(h.errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.errors).toEqual([SETTINGS_TIMEOUT]);
    await vi.advanceTimersByTimeAsync(METRICS_WAIT_MS);
    expect(h.sent).toEqual([]);
    expect(SETTINGS_TIMEOUT).toBe('Metric settings request timeout');
  });

  it("reports 'Unable to resolve pageLoadId' when the settings lack one or fail", async () => {
    for (const settings of [() => Promise.resolve({}), () => Promise.resolve({ pageLoadId: '' }), () => Promise.reject(new Error('HTTP 500'))]) {
      const h = host(settings);
      startPerformanceCollector(h.value).add(lcp);
      await vi.advanceTimersByTimeAsync(METRICS_WAIT_MS);
      expect(h.errors).toEqual([UNRESOLVED_PAGE_LOAD_ID]);
      expect(h.sent).toEqual([]);
    }
    expect(UNRESOLVED_PAGE_LOAD_ID).toBe('Unable to resolve pageLoadId');
  });
});
