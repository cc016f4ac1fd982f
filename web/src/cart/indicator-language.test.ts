//! The cart indicator's spoken label in the page's language: formatted from the messages the server
//! wrote with intl-messageformat, loaded only on such pages, and the default kept on a bad one.

import { describe, expect, it, vi } from 'vitest';

import { render, sync, INITIAL_INDICATOR } from './indicator';

function indicator(lang: string, count?: string, overCap?: string): HTMLElement {
  document.documentElement.lang = lang;
  document.body.innerHTML = '<a data-cart-indicator><span data-cart-count></span><span data-cart-subtotal></span></a>';
  const element = document.querySelector<HTMLElement>('[data-cart-indicator]')!;
  if (count) element.dataset['countMessage'] = count;
  if (overCap) element.dataset['overCapMessage'] = overCap;
  return element;
}

const FRENCH = '{count, plural, =1 {un article} one {# article dans le panier} other {# articles dans le panier}}';

describe('the cart label in the page language', () => {
  it('is formatted from the page messages with the page locale', async () => {
    const element = indicator('fr-FR', FRENCH, 'plus de 100 articles');
    render(element, sync(INITIAL_INDICATOR, 3, '€12'));
    await vi.waitFor(() => expect(element.getAttribute('aria-label')).toBe('3 articles dans le panier'));
    render(element, sync(INITIAL_INDICATOR, 101, '€12'));
    await vi.waitFor(() => expect(element.getAttribute('aria-label')).toBe('plus de 100 articles'));
  });

  it('keeps the default label when a message breaks the plural rule', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const element = indicator('en-US', '{count, plural, few {#} other {#}}', 'more');
    render(element, sync(INITIAL_INDICATOR, 2, '$1'));
    await vi.waitFor(() => expect(error).toHaveBeenCalled());
    expect(element.getAttribute('aria-label')).toBe('2 items in cart');
    error.mockRestore();
  });
});
