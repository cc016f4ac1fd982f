//! The marquee island in jsdom: copies hidden and inert, the pause control, reduced motion and
//! its change, hover only with pausedOnHover, and the spec's errors.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MARQUEE_ENVIRONMENT_NOT_READY, MARQUEE_NO_WINDOW } from '../generated/widget-constants';
import { DEFAULT_MARQUEE } from '../widgets/marquee-rules';
import { marqueeState, mount } from './marquee';

type Listener = (event: MediaQueryListEvent) => void;

/** A controllable `prefers-reduced-motion` query. */
function fakeMotion(reduce: boolean) {
  const listeners: Listener[] = [];
  const list = {
    matches: reduce,
    addEventListener: (_: string, listener: Listener) => listeners.push(listener),
    removeEventListener: (_: string, listener: Listener) => listeners.splice(listeners.indexOf(listener), 1),
  };
  window.matchMedia = vi.fn(() => list) as unknown as typeof window.matchMedia;
  return {
    listeners,
    change(next: boolean) {
      list.matches = next;
      for (const listener of [...listeners]) listener({ matches: next } as MediaQueryListEvent);
    },
  };
}

function block(): HTMLElement {
  document.body.innerHTML =
    '<div class="sqs-block marquee-block" id="block-m"><div class="marquee marquee--left" data-marquee><p class="marquee__text">Open studio <a href="/visit">Saturday</a></p></div></div>';
  const element = document.getElementById('block-m')!;
  // jsdom lays nothing out: give the band a width so it runs.
  Object.defineProperty(element.querySelector('[data-marquee]')!, 'clientWidth', { value: 800 });
  return element;
}

describe('marquee state', () => {
  const facts = { visible: true, reducedMotion: false, hovered: false, userPaused: false, regionWidth: 800, options: DEFAULT_MARQUEE };
  it('runs only when nothing stops it', () => {
    expect(marqueeState(facts)).toBe('running');
    expect(marqueeState({ ...facts, visible: false })).toBe('offscreen');
    expect(marqueeState({ ...facts, reducedMotion: true, userPaused: true })).toBe('reduced-motion');
    expect(marqueeState({ ...facts, regionWidth: 49 })).toBe('too-narrow');
    expect(marqueeState({ ...facts, userPaused: true })).toBe('paused');
    expect(marqueeState({ ...facts, hovered: true })).toBe('running');
    expect(marqueeState({ ...facts, hovered: true, options: { ...DEFAULT_MARQUEE, pausedOnHover: true } })).toBe('hovered');
  });
});

describe('marquee island', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('fills the band with hidden, inert copies and a pause control', () => {
    fakeMotion(false);
    const element = block();
    const unmount = mount(element, { animationDirection: 'right' });
    const copies = element.querySelectorAll('[data-marquee-copy]');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      expect(copy.getAttribute('aria-hidden')).toBe('true');
      expect(copy.hasAttribute('inert')).toBe(true);
    }
    expect(element.dataset['marqueeState']).toBe('running');
    const control = element.querySelector<HTMLButtonElement>('.marquee__control')!;
    expect(control.hidden).toBe(false);
    expect(control.textContent).toBe('Pause the moving text');
    control.click();
    expect(element.dataset['marqueeState']).toBe('paused');
    expect(control.textContent).toBe('Play the moving text');
    control.click();
    expect(element.dataset['marqueeState']).toBe('running');
    unmount();
    expect(element.querySelector('[data-marquee-copy], .marquee__control, .marquee__track')).toBeNull();
    expect(element.querySelector('.marquee__text')?.parentElement?.hasAttribute('data-marquee')).toBe(true);
  });

  it('stops under reduced motion and runs again when the preference changes', () => {
    const motion = fakeMotion(true);
    const element = block();
    mount(element, {});
    expect(element.dataset['marqueeState']).toBe('reduced-motion');
    expect(element.querySelector<HTMLButtonElement>('.marquee__control')!.hidden).toBe(true);
    motion.change(false);
    expect(element.dataset['marqueeState']).toBe('running');
    motion.change(true);
    expect(element.dataset['marqueeState']).toBe('reduced-motion');
  });

  it('pauses on hover only when pausedOnHover is set', () => {
    fakeMotion(false);
    const plain = block();
    mount(plain, {});
    plain.querySelector('[data-marquee]')!.dispatchEvent(new Event('pointerenter'));
    expect(plain.dataset['marqueeState']).toBe('running');
    const hovering = block();
    mount(hovering, { pausedOnHover: true });
    const band = hovering.querySelector('[data-marquee]')!;
    band.dispatchEvent(new Event('pointerenter'));
    expect(hovering.dataset['marqueeState']).toBe('hovered');
    band.dispatchEvent(new Event('pointerleave'));
    expect(hovering.dataset['marqueeState']).toBe('running');
  });

  it('drops an event that arrives when the band is not set up, with the spec warning', () => {
    const motion = fakeMotion(false);
    const element = block();
    const unmount = mount(element, {});
    // A change the browser had already queued when the band was taken down.
    const queued = [...motion.listeners];
    expect(queued).toHaveLength(1);
    unmount();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    queued[0]!({ matches: true } as MediaQueryListEvent);
    expect(warn).toHaveBeenCalledWith(MARQUEE_ENVIRONMENT_NOT_READY);
    expect(element.dataset['marqueeState']).toBeUndefined();
  });

  it('cannot start without a window', () => {
    const detached = document.implementation.createHTMLDocument('');
    detached.body.innerHTML = '<div id="m"><div data-marquee><p class="marquee__text">x</p></div></div>';
    expect(() => mount(detached.getElementById('m')!, {})).toThrow(MARQUEE_NO_WINDOW);
    expect(MARQUEE_ENVIRONMENT_NOT_READY).toBe('Event is firing before the environment is initialized!');
  });
});
