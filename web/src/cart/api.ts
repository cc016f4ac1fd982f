//! The cart calls, through the runtime's request layer: each resolves to the new cart or to the
//! text the shopper reads, never throws, and tells the page that the cart changed.

import type { RequestClient, RequestOutcome } from '../runtime/request/client';
import { announceCart } from './events';
import { failureText, isCartAnswer, type CartAnswer, type CartCall } from './model';

export const CART_API = '/api/commerce/cart';

export type CartResult = { readonly ok: true; readonly answer: CartAnswer } | { readonly ok: false; readonly message: string };

export interface CartApi {
  load(): Promise<CartResult>;
  add(itemId: string, sku: string, quantity: number): Promise<CartResult>;
  changeQuantity(sku: string, quantity: number): Promise<CartResult>;
  remove(sku: string): Promise<CartResult>;
  applyCoupon(code: string): Promise<CartResult>;
  removeCoupon(code: string): Promise<CartResult>;
  setLocation(country: string, region: string, postalCode: string): Promise<CartResult>;
  selectShippingOption(id: string): Promise<CartResult>;
}

export function createCartApi(requests: RequestClient, events: EventTarget): CartApi {
  const finish = (call: CartCall, outcome: RequestOutcome<unknown>): CartResult => {
    if (!outcome.ok) return { ok: false, message: failureText(call, outcome.failure) };
    if (!isCartAnswer(outcome.data)) return { ok: false, message: failureText(call, { reason: 'parse', status: 200, body: undefined }) };
    announceCart(events, outcome.data.cart);
    return { ok: true, answer: outcome.data };
  };
  const silent = { onFailure: () => {}, format: 'json' as const };
  const path = (segment: string) => `${CART_API}/${segment}`;
  return {
    load: async () => finish('update', await requests.get(CART_API, undefined, { onFailure: () => {} })),
    add: async (itemId, sku, quantity) =>
      finish('add', await requests.post(path('items'), { itemId, sku, quantity }, silent)),
    changeQuantity: async (sku, quantity) =>
      finish('update', await requests.put(path(`items/${encodeURIComponent(sku)}`), { quantity }, silent)),
    remove: async (sku) => finish('remove', await requests.delete(path(`items/${encodeURIComponent(sku)}`), undefined, silent)),
    applyCoupon: async (code) => finish('coupon', await requests.post(path('coupons'), { code }, silent)),
    removeCoupon: async (code) =>
      finish('coupon', await requests.delete(path(`coupons/${encodeURIComponent(code)}`), undefined, silent)),
    setLocation: async (country, region, postalCode) =>
      finish('shipping', await requests.put(path('shipping-location'), { country, region, postalCode }, silent)),
    selectShippingOption: async (id) => finish('shipping', await requests.put(path('shipping-option'), { id }, silent)),
  };
}
