//! Tests of the accordion island in a DOM: mounting over the server markup, clicks, keys, ARIA, animation, unmount.

import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCORDION_ANIMATION_MS } from '../runtime/constants';
import { ANIMATING_CLASS, mount } from './accordion';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const item = (title: string, body: string) =>
  `<details class="accordion-item"><summary class="accordion-item__title">${title}</summary><div class="accordion-item__body">${body}</div></details>`;

function block(count = 3): HTMLElement {
  const element = document.createElement('div');
  element.className = 'sqs-block accordion-block';
  element.id = 'block-acc';
  element.setAttribute('data-block-type', '69');
  element.setAttribute('data-island', 'accordion');
  element.innerHTML = Array.from({ length: count }, (_, i) => item(`Title ${i + 1}`, `<p>Body ${i + 1}</p>`)).join('');
  document.body.append(element);
  return element;
}

const summaries = (element: HTMLElement) => [...element.querySelectorAll<HTMLElement>('summary')];
const details = (element: HTMLElement) => [...element.querySelectorAll<HTMLDetailsElement>('details')];
const openFlags = (element: HTMLElement) => details(element).map((d) => d.open);
const expanded = (element: HTMLElement) => summaries(element).map((s) => s.getAttribute('aria-expanded'));

let unmounts: Array<() => void> = [];
function mountBlock(element: HTMLElement, props: unknown): void {
  let unmount: (() => void) | undefined;
  act(() => {
    unmount = mount(element, props);
  });
  unmounts.push(() => act(() => unmount!()));
}

afterEach(() => {
  for (const unmount of unmounts) unmount();
  unmounts = [];
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('accordion island', () => {
  it('keeps the server content and classes, opening the first item when asked', () => {
    const element = block();
    const paragraph = element.querySelector('p');
    mountBlock(element, { allowMultiple: false, firstOpen: true });
    expect(openFlags(element)).toEqual([true, false, false]);
    expect(expanded(element)).toEqual(['true', 'false', 'false']);
    expect(summaries(element).map((s) => s.textContent)).toEqual(['Title 1', 'Title 2', 'Title 3']);
    expect(element.querySelector('p')).toBe(paragraph);
    expect(details(element)[0]!.className).toBe('accordion-item');
    const body = element.querySelector('.accordion-item__body')!;
    expect(summaries(element)[0]!.getAttribute('aria-controls')).toBe(body.id);
  });

  it('clicking toggles, and opening one closes the others', () => {
    const element = block();
    mountBlock(element, { allowMultiple: false, firstOpen: true });
    act(() => summaries(element)[1]!.click());
    expect(openFlags(element)).toEqual([false, true, false]);
    act(() => summaries(element)[1]!.click());
    expect(openFlags(element)).toEqual([false, false, false]);
    expect(expanded(element)).toEqual(['false', 'false', 'false']);
  });

  it('lets several items stay open when the block allows multiple', () => {
    const element = block();
    mountBlock(element, { allowMultiple: true, firstOpen: true });
    act(() => summaries(element)[2]!.click());
    expect(openFlags(element)).toEqual([true, false, true]);
  });

  it('toggles with Enter and Space', () => {
    const element = block();
    mountBlock(element, { allowMultiple: false, firstOpen: false });
    const press = (key: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      act(() => summaries(element)[0]!.dispatchEvent(event));
      return event;
    };
    expect(press('Enter').defaultPrevented).toBe(true);
    expect(openFlags(element)).toEqual([true, false, false]);
    press(' ');
    expect(openFlags(element)).toEqual([false, false, false]);
    press('a');
    expect(openFlags(element)).toEqual([false, false, false]);
  });

  it('flags the changed items as animating for the animation time', () => {
    vi.useFakeTimers();
    const element = block();
    mountBlock(element, { allowMultiple: false, firstOpen: true });
    act(() => summaries(element)[1]!.click());
    const animating = () => details(element).map((d) => d.classList.contains(ANIMATING_CLASS));
    expect(animating()).toEqual([true, true, false]);
    act(() => vi.advanceTimersByTime(ACCORDION_ANIMATION_MS - 1));
    expect(animating()).toEqual([true, true, false]);
    act(() => vi.advanceTimersByTime(1));
    expect(animating()).toEqual([false, false, false]);
  });

  it('lets a link inside a title work as a link', () => {
    const element = document.createElement('div');
    element.setAttribute('data-island', 'accordion');
    element.innerHTML = item('<a href="#more">More</a>', 'x');
    document.body.append(element);
    mountBlock(element, {});
    const link = element.querySelector('a')!;
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => link.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(false);
    expect(openFlags(element)).toEqual([false]);
  });

  it('throws on markup it cannot take over, leaving it untouched', () => {
    const element = document.createElement('div');
    element.innerHTML = '<p>not an accordion</p>';
    expect(() => mount(element, {})).toThrow();
    expect(element.innerHTML).toBe('<p>not an accordion</p>');
  });

  it('puts the server markup back on unmount', () => {
    const element = block(2);
    const before = element.innerHTML;
    let unmount!: () => void;
    act(() => {
      unmount = mount(element, { firstOpen: false });
    });
    act(() => unmount());
    expect(element.innerHTML).toBe(before);
  });
});
