//! The web cart's indicator rules and texts agree with the Rust core on every generated vector.

import { describe, expect, it } from 'vitest';
import { INITIAL_INDICATOR, displayCount, isEmpty, render, spokenLabel, sync } from './indicator';
import * as texts from './texts';

interface Vectors {
  indicator: { items: number; displayCount: string; label: string; empty: boolean }[];
  texts: Record<string, string>;
}

const loaded = import.meta.glob<Vectors>('../generated/cart-vectors.json', { eager: true, import: 'default' });
const vectors = Object.values(loaded)[0];

describe('cart vectors from the Rust core', () => {
  it('are present', () => {
    expect(vectors).toBeDefined();
    expect(vectors!.indicator.length).toBeGreaterThan(5);
  });

  it.each(vectors?.indicator ?? [])('$items items show $displayCount and say $label', (vector) => {
    expect(displayCount(vector.items)).toBe(vector.displayCount);
    expect(spokenLabel(vector.items)).toBe(vector.label);
    expect(isEmpty(sync(INITIAL_INDICATOR, vector.items, ''))).toBe(vector.empty);
  });

  it('carry the same verbatim texts', () => {
    const t = vectors!.texts;
    expect(t['unableToUpdateQuantity']).toBe(texts.UNABLE_TO_UPDATE_QUANTITY);
    expect(t['unableToAddItem']).toBe(texts.UNABLE_TO_ADD_ITEM);
    expect(t['unableToRemoveItem']).toBe(texts.UNABLE_TO_REMOVE_ITEM);
    expect(t['unableToOpenForm']).toBe(texts.UNABLE_TO_OPEN_FORM);
    expect(t['unableToUpdateForm']).toBe(texts.UNABLE_TO_UPDATE_FORM);
    expect(t['pleaseTryAgain']).toBe(texts.PLEASE_TRY_AGAIN);
    expect(t['checkInternetConnection']).toBe(texts.CHECK_INTERNET_CONNECTION);
    expect(t['updateMissingInformation']).toBe(texts.UPDATE_MISSING_INFORMATION);
    expect(t['nothingInCart']).toBe(texts.NOTHING_IN_CART);
    expect(t['minimumSubtotalTemplate']).toBe(texts.MINIMUM_SUBTOTAL_TEMPLATE);
  });
});

describe('indicator state', () => {
  it('is not initialised until the first sync, then tracks the count', () => {
    expect(INITIAL_INDICATOR.initialized).toBe(false);
    const synced = sync(INITIAL_INDICATOR, 3, '$30.00');
    expect(synced).toEqual({ initialized: true, items: 3, subtotal: '$30.00' });
    expect(isEmpty(synced)).toBe(false);
    expect(isEmpty(sync(synced, 0, '$0.00'))).toBe(true);
  });

  it('renders the marks, the capped count and the spoken label', () => {
    const element = document.createElement('a');
    element.innerHTML = '<span data-cart-count></span><span data-cart-subtotal></span>';
    render(element, INITIAL_INDICATOR);
    expect(element.hasAttribute('data-initialized')).toBe(false);
    expect(element.hasAttribute('data-empty')).toBe(true);
    render(element, sync(INITIAL_INDICATOR, 150, '$1,500.00'));
    expect(element.hasAttribute('data-initialized')).toBe(true);
    expect(element.hasAttribute('data-empty')).toBe(false);
    expect(element.getAttribute('aria-label')).toBe('more than 100 items');
    expect(element.querySelector('[data-cart-count]')!.textContent).toBe('100+');
    expect(element.querySelector('[data-cart-subtotal]')!.textContent).toBe('$1,500.00');
  });
});

describe('cart texts', () => {
  it('fills in the minimum and picks the failure text', () => {
    expect(texts.minimumSubtotalMessage('$25.00')).toBe('To check out, your order subtotal must be $25.00 or more');
    expect(texts.cartFailureText('add', false)).toBe('Unable to add item');
    expect(texts.cartFailureText('update', false)).toBe('Unable to update quantity');
    expect(texts.cartFailureText('remove', false)).toBe('Unable to remove item');
    expect(texts.cartFailureText('add', true)).toBe('Please check your internet connection');
  });
});
