//! The hold countdown island ticks the server's figure down each second and says when the hold has ended.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOLD_ENDED_TEXT } from '../cart/countdown';
import { mount } from './hold-countdown';

function holdParagraph(): HTMLElement {
  document.body.innerHTML =
    '<p class="checkout-hold">Your items are held for you for <span data-countdown-seconds="3">0:03</span>.</p>';
  return document.querySelector('p')!;
}

describe('hold countdown island', () => {
  afterEach(() => vi.useRealTimers());

  it('counts down and then says the hold has ended, once', () => {
    vi.useFakeTimers();
    const element = holdParagraph();
    const unmount = mount(element, { seconds: 3 });
    vi.advanceTimersByTime(1000);
    expect(element.querySelector('span')!.textContent).toBe('0:02');
    expect(element.hasAttribute('role')).toBe(false);
    vi.advanceTimersByTime(2000);
    expect(element.textContent).toBe(HOLD_ENDED_TEXT);
    expect(element.getAttribute('role')).toBe('status');
    unmount();
    expect(element.querySelector('span')).not.toBeNull();
  });

  it('refuses props without seconds, leaving the server markup', () => {
    const element = holdParagraph();
    expect(() => mount(element, {})).toThrow();
    expect(element.textContent).toContain('0:03');
  });
});
