//! The text-effect island in jsdom with a recorded Web Animations API: it waits for visibility
//! and 250 ms, draws from the undrawn side, scales fadeScale from half size, re-runs on new
//! options and stays static under reduced motion.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, OPTIONS_EVENT } from './text-effect';

interface Recorded {
  readonly target: Element;
  readonly keyframes: Keyframe[];
  readonly timing: KeyframeAnimationOptions;
  finish(): void;
}

let recorded: Recorded[] = [];
let observed: ((entries: { isIntersecting: boolean }[]) => void) | undefined;

beforeEach(() => {
  recorded = [];
  (SVGElement.prototype as unknown as { animate: unknown }).animate = function (this: Element, keyframes: Keyframe[], timing: KeyframeAnimationOptions) {
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    recorded.push({ target: this, keyframes, timing, finish: () => finish() });
    return { finished, cancel: () => undefined, currentTime: 0, effect: { getTiming: () => ({ duration: timing.duration }) } };
  };
  (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
    constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
      observed = callback;
    }
    observe() {}
    disconnect() {}
  };
  window.matchMedia = vi.fn(() => ({ matches: false })) as unknown as typeof window.matchMedia;
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
  delete (SVGElement.prototype as unknown as { animate?: unknown }).animate;
});

function block(paths = 1): HTMLElement {
  const d = '<path d="M2 36H198" pathLength="1"></path>'.repeat(paths);
  document.body.innerHTML = `<div id="block-t"><h2>Made <span class="text-effect text-effect--underline" data-text-effect>slowly<svg viewBox="0 0 200 40">${d}</svg></span></h2></div>`;
  return document.getElementById('block-t')!;
}

describe('text-effect island', () => {
  it('plays once visible and no sooner than 250 ms after ready, drawing from the undrawn side', async () => {
    const element = block(2);
    mount(element, { shape: 'underlineDouble', direction: 'right', duration: 0.75 });
    expect(element.dataset['textEffectState']).toBe('waiting');
    // Undrawn: progress -1 for right is a dash offset of 1.
    for (const path of element.querySelectorAll('path')) expect(path.style.strokeDashoffset).toBe('1');
    observed!([{ isIntersecting: true }]);
    expect(recorded).toHaveLength(0);
    vi.advanceTimersByTime(249);
    expect(recorded).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(recorded).toHaveLength(2);
    expect(recorded[0]!.keyframes).toEqual([{ strokeDashoffset: '1' }, { strokeDashoffset: '0' }]);
    expect(recorded[0]!.timing.duration).toBe(750);
    expect(element.dataset['textEffectState']).toBe('playing');
    recorded.forEach((r) => r.finish());
    await vi.runAllTimersAsync();
    expect(element.dataset['textEffectState']).toBe('done');
    // Only once.
    observed!([{ isIntersecting: true }]);
    expect(recorded).toHaveLength(2);
  });

  it('waits for visibility when ready first', () => {
    const element = block();
    mount(element, { direction: 'left' });
    expect(element.querySelector('path')!.style.strokeDashoffset).toBe('-1');
    vi.advanceTimersByTime(1000);
    expect(recorded).toHaveLength(0);
    observed!([{ isIntersecting: true }]);
    expect(recorded[0]!.keyframes).toEqual([{ strokeDashoffset: '-1' }, { strokeDashoffset: '0' }]);
  });

  it('fades in, and fadeScale grows from half size', () => {
    const element = block();
    mount(element, { animation: 'fadeScale', duration: 2 });
    expect(element.querySelector('svg')!.style.opacity).toBe('0');
    observed!([{ isIntersecting: true }]);
    vi.advanceTimersByTime(250);
    expect(recorded[0]!.keyframes).toEqual([
      { opacity: 0, transform: 'scale(0.5)' },
      { opacity: 1, transform: 'scale(1)' },
    ]);
    expect(recorded[0]!.timing.duration).toBe(2000);
  });

  it('re-runs when shape, animation or direction change, not for the linecap alone', () => {
    const element = block();
    mount(element, { shape: 'underline' });
    observed!([{ isIntersecting: true }]);
    vi.advanceTimersByTime(250);
    expect(recorded).toHaveLength(1);
    element.dispatchEvent(new CustomEvent(OPTIONS_EVENT, { detail: { shape: 'underline', linecap: 'round' } }));
    expect(recorded).toHaveLength(1);
    element.dispatchEvent(new CustomEvent(OPTIONS_EVENT, { detail: { shape: 'cross' } }));
    expect(recorded).toHaveLength(3);
    expect(element.querySelectorAll('path')).toHaveLength(2);
    expect(element.querySelector('[data-text-effect]')!.className).toContain('text-effect--cross');
    element.dispatchEvent(new CustomEvent(OPTIONS_EVENT, { detail: { shape: 'cross', direction: 'left' } }));
    expect(recorded.at(-1)!.keyframes[0]).toEqual({ strokeDashoffset: '-1' });
  });

  it('stays drawn, as the server rendered it, under reduced motion', () => {
    window.matchMedia = vi.fn(() => ({ matches: true })) as unknown as typeof window.matchMedia;
    const element = block();
    mount(element, {});
    expect(element.dataset['textEffectState']).toBe('static');
    expect(element.querySelector('path')!.style.strokeDashoffset).toBe('');
    vi.advanceTimersByTime(1000);
    expect(recorded).toHaveLength(0);
  });

  it('redraws after a reflow of the words, debounced 10 ms', async () => {
    const element = block();
    mount(element, {});
    const words = element.querySelector('[data-text-effect]')!;
    words.firstChild!.textContent = 'slowly, ';
    words.append(document.createTextNode('calmly'));
    await vi.advanceTimersByTimeAsync(9);
    const before = Number(element.dataset['textEffectRedraws'] ?? 0);
    await vi.advanceTimersByTimeAsync(1);
    expect(Number(element.dataset['textEffectRedraws'])).toBe(before + 1);
  });

  it("drops a visibility event that arrives after it was taken down, with the spec's warning", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const element = block();
    const unmount = mount(element, {});
    vi.advanceTimersByTime(250);
    unmount();
    observed?.([{ isIntersecting: true }]);
    expect(warn).toHaveBeenCalledWith('Event is firing before the environment is initialized!');
    expect(recorded).toHaveLength(0);
    expect(element.dataset['textEffectState']).toBeUndefined();
  });

  it('cannot start without a window', () => {
    const detached = document.implementation.createHTMLDocument('');
    detached.body.innerHTML = '<div id="t"><span data-text-effect>words<svg></svg></span></div>';
    expect(() => mount(detached.getElementById('t')!, {})).toThrow('Cannot init animations without a window context');
  });
});
