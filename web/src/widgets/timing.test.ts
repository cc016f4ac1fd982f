//! The throttle spaces runs by twice their average cost; wait-for-element polls every 100 ms and
//! rejects with the missing path; relative times refresh every 5000 ms; the spinner is announced.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRelativeTimes } from './human';
import { showSpinner } from './spinner';
import { ElementNotFoundError, throttle, waitForElement } from './timing';

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('throttle', () => {
  it('runs at once, then waits twice the average run time, collapsing calls made meanwhile', () => {
    let now = 0;
    const scheduled: { at: number; run: () => void }[] = [];
    const clock = { now: () => now, setTimeout: (run: () => void, ms: number) => scheduled.push({ at: now + ms, run }) };
    let runs = 0;
    const work = () => {
      runs += 1;
      now += 10; // each run costs 10 ms
    };
    const throttled = throttle(work, clock);
    throttled();
    expect(runs).toBe(1);
    throttled();
    throttled();
    expect(runs).toBe(1);
    expect(scheduled).toHaveLength(1);
    // Twice the 10 ms average after the run ended at 10 ms.
    expect(scheduled[0]!.at).toBe(30);
    now = 30;
    scheduled[0]!.run();
    expect(runs).toBe(2);
  });
});

describe('wait for element', () => {
  it('finds an element that appears later, polling every 100 ms', async () => {
    vi.useFakeTimers();
    document.body.innerHTML = '<div id="parent"></div>';
    const found = waitForElement('#parent', '.late', 1000);
    await vi.advanceTimersByTimeAsync(250);
    document.getElementById('parent')!.innerHTML = '<span class="late"></span>';
    await vi.advanceTimersByTimeAsync(100);
    await expect(found).resolves.toBe(document.querySelector('.late'));
  });

  it('rejects with the missing path', async () => {
    vi.useFakeTimers();
    await expect(waitForElement('#nowhere', '.x', 1000)).rejects.toEqual(new ElementNotFoundError('#nowhere'));
    document.body.innerHTML = '<div id="parent"></div>';
    const missing = waitForElement('#parent', '.never', 300);
    const settled = expect(missing).rejects.toMatchObject({ path: '#parent .never', name: 'ElementNotFoundError' });
    await vi.advanceTimersByTimeAsync(400);
    await settled;
  });
});

describe('relative times', () => {
  it('rewrite <time data-relative> and refresh every 5000 ms', async () => {
    vi.useFakeTimers();
    let now = Date.parse('2026-03-02T10:00:00Z');
    document.body.innerHTML = '<time data-relative datetime="2026-03-02T09:59:57Z">2 March 2026</time>';
    const stop = startRelativeTimes(document, 'en-GB', () => now);
    const time = document.querySelector('time')!;
    expect(time.textContent).toBe('just now');
    expect(time.title).toBe('2 March 2026');
    now += 5000;
    await vi.advanceTimersByTimeAsync(5000);
    expect(time.textContent).toBe('8 seconds ago');
    stop();
  });
});

describe('spinner', () => {
  it('is a labelled status that marks its container busy until removed', () => {
    const box = document.createElement('div');
    document.body.append(box);
    const spinner = showSpinner(box);
    expect(spinner.element.getAttribute('role')).toBe('status');
    expect(spinner.element.textContent).toBe('Loading');
    expect(box.getAttribute('aria-busy')).toBe('true');
    spinner.remove();
    expect(box.hasAttribute('aria-busy')).toBe(false);
  });
});
