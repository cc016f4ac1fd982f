//! Tests of the resize emitter: start past the threshold (per axis when set), end after the
//! quiet time-out, and the checks of 001 s5.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { checkResizeOptions, createResizeEmitter, movedBeyond, RESIZE_DEFAULT_TIMEOUT_MS } from './resize-emitter';

function resizeTo(width: number, height: number): void {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
  Object.defineProperty(window, 'innerHeight', { value: height, configurable: true });
  window.dispatchEvent(new Event('resize'));
}

describe('resize emitter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resizeTo(1000, 800);
  });
  afterEach(() => vi.useRealTimers());

  it('starts once, and ends 300 ms after the last resize', () => {
    const emitter = createResizeEmitter(window);
    const heard: string[] = [];
    emitter.addEventListener('resize:start', () => heard.push('start'));
    emitter.addEventListener('resize:end', () => heard.push('end'));
    resizeTo(990, 800);
    vi.advanceTimersByTime(200);
    resizeTo(980, 800);
    expect(heard).toEqual(['start']);
    expect(emitter.resizing).toBe(true);
    vi.advanceTimersByTime(RESIZE_DEFAULT_TIMEOUT_MS - 1);
    expect(heard).toEqual(['start']);
    vi.advanceTimersByTime(1);
    expect(heard).toEqual(['start', 'end']);
    expect(emitter.resizing).toBe(false);
    emitter.destroy();
    resizeTo(500, 500);
    vi.advanceTimersByTime(1000);
    expect(heard).toEqual(['start', 'end']);
  });

  it('ignores changes within the threshold, and the other axis when one is set', () => {
    const emitter = createResizeEmitter(window, { axis: 'y', threshold: 20, timeoutMs: 100 });
    const starts = vi.fn();
    emitter.addEventListener('resize:start', starts);
    resizeTo(400, 800);
    resizeTo(400, 820);
    expect(starts).not.toHaveBeenCalled();
    resizeTo(400, 821);
    expect(starts).toHaveBeenCalledTimes(1);
    emitter.destroy();
  });

  it('measures against the size it last settled at', () => {
    expect(movedBeyond({ width: 10, height: 10 }, { width: 10, height: 10 }, 0)).toBe(false);
    expect(movedBeyond({ width: 10, height: 10 }, { width: 11, height: 10 }, 0)).toBe(true);
    expect(movedBeyond({ width: 10, height: 10 }, { width: 11, height: 10 }, 0, 'y')).toBe(false);
  });

  it('refuses an axis other than x or y, and a threshold that is not a number', () => {
    expect(checkResizeOptions({})).toEqual({ threshold: 0, timeoutMs: 300 });
    expect(() => checkResizeOptions({ axis: 'z' as 'x' })).toThrow('x or y');
    expect(() => checkResizeOptions({ threshold: '5' as unknown as number })).toThrow('must be a number');
  });
});
