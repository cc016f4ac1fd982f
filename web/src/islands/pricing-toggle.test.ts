//! The pricing toggle flips between its left and right options with aria-pressed, and shows
//! only the selected side's price.

import { describe, expect, it } from 'vitest';
import { flip, parseSide, press } from '../people/pricing-toggle';
import { mount } from './pricing-toggle';

function pricing(): HTMLElement {
  document.body.innerHTML = `<div class="pricing" data-island="pricing-toggle">
    <div data-pricing-toggle hidden>
      <button type="button" aria-pressed="true" data-side="left">Monthly</button>
      <button type="button" aria-pressed="false" data-side="right">Yearly</button>
    </div>
    <p class="pricing__option" data-side="left">€5 a month</p>
    <p class="pricing__option" data-side="right">€50 a year</p>
  </div>`;
  return document.querySelector('.pricing')!;
}

describe('pricing toggle', () => {
  it('flips between left and right and keeps one side pressed', () => {
    expect(flip('left')).toBe('right');
    expect(flip('right')).toBe('left');
    expect(press('left', 'left')).toBe('left');
    expect(press('left', 'right')).toBe('right');
    expect(parseSide('middle')).toBeUndefined();
  });

  it('shows the toggle and only the pressed side, and gives the page back on unmount', () => {
    const element = pricing();
    const unmount = mount(element);
    const [monthly, yearly] = [...element.querySelectorAll('button')] as [HTMLButtonElement, HTMLButtonElement];
    const [left, right] = [...element.querySelectorAll<HTMLElement>('.pricing__option')] as [HTMLElement, HTMLElement];
    expect(element.querySelector<HTMLElement>('[data-pricing-toggle]')!.hidden).toBe(false);
    expect([left.hidden, right.hidden]).toEqual([false, true]);
    yearly.click();
    expect(monthly.getAttribute('aria-pressed')).toBe('false');
    expect(yearly.getAttribute('aria-pressed')).toBe('true');
    expect([left.hidden, right.hidden]).toEqual([true, false]);
    yearly.click();
    expect(yearly.getAttribute('aria-pressed')).toBe('true');
    monthly.click();
    expect([left.hidden, right.hidden]).toEqual([false, true]);
    unmount();
    expect([left.hidden, right.hidden]).toEqual([false, false]);
  });

  it('refuses markup without its two buttons', () => {
    document.body.innerHTML = '<div class="pricing"></div>';
    expect(() => mount(document.querySelector('.pricing')!)).toThrow('pricing-toggle island');
  });
});
