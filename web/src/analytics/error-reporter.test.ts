import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MAX_SENDS_PER_PAGE, MAX_STACK_CHARS, createErrorReporter, type ErrorEntry } from './error-reporter';

describe('error reporter', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const data = { url: '/', userAgent: 'UA', app: 'vitrine', message: 'boom' };

  function reporter() {
    const batches: (readonly ErrorEntry[])[] = [];
    const r = createErrorReporter({
      now: () => Date.now(),
      setTimer: (run, ms) => setTimeout(run, ms),
      clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      send: (entries) => batches.push(entries),
    });
    return { r, batches };
  }

  it('debounces sends by a second and queues at most ten', () => {
    const { r, batches } = reporter();
    for (let i = 0; i < 12; i++) r.report(data);
    vi.advanceTimersByTime(999);
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(batches.map((b) => b.length)).toEqual([10]);
  });

  it('never sends more than twenty per page, under any sequence', () => {
    const { r, batches } = reporter();
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < (round % 7) + 1; i++) r.report(data);
      vi.advanceTimersByTime((round % 3) * 600);
      expect(r.queued()).toBeLessThanOrEqual(10);
    }
    vi.advanceTimersByTime(5000);
    expect(batches.flat().length).toBe(MAX_SENDS_PER_PAGE);
    expect(r.report(data)).toBe(false);
  });

  it('truncates stacks', () => {
    const { r, batches } = reporter();
    r.report({ ...data, stack: 'x'.repeat(6000) });
    vi.advanceTimersByTime(1000);
    expect(batches[0]![0]!.data.stack!.length).toBe(MAX_STACK_CHARS);
  });
});
