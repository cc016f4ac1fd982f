//! The page-wide signal that the cart changed, so the header's cart indicator follows every cart
//! call (the cart page's island, add to cart on a product page) without a second request.

import { INITIAL_INDICATOR, render, sync, type CartIndicatorState } from './indicator';

export const CART_UPDATED_EVENT = 'vitrine:cart-updated';

export interface CartFigures {
  readonly items: number;
  readonly subtotal: string;
}

/** Tells the page the cart's new figures. */
export function announceCart(events: EventTarget, cart: { readonly indicator: CartFigures }): void {
  const detail: CartFigures = { items: cart.indicator.items, subtotal: cart.indicator.subtotal };
  events.dispatchEvent(new CustomEvent<CartFigures>(CART_UPDATED_EVENT, { detail }));
}

/** Keeps every `[data-cart-indicator]` element of `root` in step with the cart; returns a stop function. */
export function followCart(root: ParentNode, events: EventTarget): () => void {
  let state: CartIndicatorState = INITIAL_INDICATOR;
  const paint = () => {
    for (const element of root.querySelectorAll<HTMLElement>('[data-cart-indicator]')) render(element, state);
  };
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<CartFigures>).detail;
    if (typeof detail?.items !== 'number') return;
    state = sync(state, detail.items, typeof detail.subtotal === 'string' ? detail.subtotal : '');
    paint();
  };
  events.addEventListener(CART_UPDATED_EVENT, listener);
  return () => events.removeEventListener(CART_UPDATED_EVENT, listener);
}
