//! The tooltip in jsdom: shown 1200 ms after the pointer rests, at once on keyboard focus, kept
//! while the pointer moves onto it, dismissed by Escape without moving focus.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEscapeRegistry } from '../runtime/escape-registry';
import { createOverlayCoordinator } from '../runtime/overlay-coordinator';
import { startTooltips } from './tooltip';

function page() {
  document.body.innerHTML =
    '<p><a href="/x" aria-describedby="tip" data-tooltip-target>Hint</a><span id="tip" role="tooltip" hidden>Explained</span></p>';
  const escape = createEscapeRegistry();
  const overlays = createOverlayCoordinator({ document, escape });
  const stop = startTooltips({ window, overlays }, document);
  return { escape, overlays, stop, target: document.querySelector('a')!, tip: document.getElementById('tip')! };
}

const pointer = (type: string, x = 100, y = 100) => Object.assign(new Event(type), { clientX: x, clientY: y });

describe('tooltip', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('shows 1200 ms after the pointer rests on its target, beside the pointer', () => {
    vi.useFakeTimers();
    const { target, tip } = page();
    target.dispatchEvent(pointer('pointerenter', 100, 100));
    vi.advanceTimersByTime(1199);
    expect(tip.hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(tip.hidden).toBe(false);
    expect(tip.style.left).toBe('115px');
    expect(tip.style.width).toBe('250px');
  });

  it('stays while the pointer crosses onto it, and goes when it leaves both', () => {
    vi.useFakeTimers();
    const { target, tip } = page();
    target.dispatchEvent(pointer('pointerenter'));
    vi.advanceTimersByTime(1200);
    target.dispatchEvent(pointer('pointerleave'));
    tip.dispatchEvent(pointer('pointerenter'));
    vi.advanceTimersByTime(1000);
    expect(tip.hidden).toBe(false);
    tip.dispatchEvent(pointer('pointerleave'));
    vi.advanceTimersByTime(300);
    expect(tip.hidden).toBe(true);
  });

  it('a pointer passing through never shows it', () => {
    vi.useFakeTimers();
    const { target, tip } = page();
    target.dispatchEvent(pointer('pointerenter'));
    vi.advanceTimersByTime(600);
    target.dispatchEvent(pointer('pointerleave'));
    vi.advanceTimersByTime(2000);
    expect(tip.hidden).toBe(true);
  });

  it('shows on keyboard focus and Escape dismisses it, leaving focus in place', () => {
    const { target, tip, escape, overlays } = page();
    // jsdom has no :focus-visible; a keyboard focus matches it in browsers.
    const matches = target.matches.bind(target);
    (target as { matches: (selector: string) => boolean }).matches = (selector) => selector === ':focus-visible' || matches(selector);
    target.focus();
    expect(tip.hidden).toBe(false);
    expect(overlays.shown).toEqual(['tooltip']);
    escape.handleKeydown(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(tip.hidden).toBe(true);
    expect(document.activeElement).toBe(target);
    expect(overlays.shown).toEqual([]);
  });
});
