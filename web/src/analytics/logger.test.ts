import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { LOG_FLUSH_MS, MAX_LOG_ENTRIES, createLogger, type LoggerHost } from './logger';

function host(beaconAccepts = true) {
  const posted: URLSearchParams[] = [];
  const beacons: URLSearchParams[] = [];
  let leave: () => void = () => undefined;
  const value: LoggerHost = {
    pageUrl: () => 'https://shop.example/shop',
    setInterval: (run, ms) => setInterval(run, ms),
    post: (body) => posted.push(body),
    beacon: (body) => {
      beacons.push(body);
      return beaconAccepts;
    },
    onLeave: (run) => (leave = run),
  };
  const batches = (bodies: URLSearchParams[]) => bodies.map((body) => JSON.parse(body.get('data') ?? '[]') as unknown[]);
  return { value, posted, beacons, leave: () => leave(), batches };
}

describe('the logger', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends its batches every 30 s as the Trace form field data', () => {
    const h = host();
    const logger = createLogger(h.value);
    logger.log('consent', { choice: 'accepted' });
    logger.log('popup', { decision: 'show' });
    vi.advanceTimersByTime(LOG_FLUSH_MS - 1);
    expect(h.posted).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(h.batches(h.posted)).toEqual([
      [
        { pageUrl: 'https://shop.example/shop', type: 'consent', data: { choice: 'accepted' } },
        { pageUrl: 'https://shop.example/shop', type: 'popup', data: { decision: 'show' } },
      ],
    ]);
    // Nothing queued: the next tick sends nothing.
    vi.advanceTimersByTime(LOG_FLUSH_MS);
    expect(h.posted).toHaveLength(1);
  });

  it('flushes by beacon when the page is left, falling back to fetch when the beacon is refused', () => {
    const h = host();
    const logger = createLogger(h.value);
    logger.log('a', 1);
    h.leave();
    expect(h.batches(h.beacons)).toEqual([[{ pageUrl: 'https://shop.example/shop', type: 'a', data: 1 }]]);
    expect(h.posted).toHaveLength(0);
    const refused = host(false);
    createLogger(refused.value).log('b', 2);
    refused.leave();
    expect(refused.beacons).toHaveLength(1);
    expect(refused.batches(refused.posted)).toEqual([[{ pageUrl: 'https://shop.example/shop', type: 'b', data: 2 }]]);
  });

  it('holds at most its limit between flushes', () => {
    const logger = createLogger(host().value);
    for (let i = 0; i < MAX_LOG_ENTRIES; i += 1) expect(logger.log('x', i)).toBe(true);
    expect(logger.log('x', 'one too many')).toBe(false);
    expect(logger.queued()).toBe(MAX_LOG_ENTRIES);
  });
});
