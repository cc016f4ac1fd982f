//! The cart calls, through the runtime's request layer: each resolves to the new cart or to the
//! text the shopper reads, never throws, and tells the page that the cart changed.

import type { RequestClient, RequestOutcome } from '../runtime/request/client';
import { announceCart } from './events';
import { fieldErrorsOf, isLineForm, type Answers, type FieldErrors, type LineForm } from './line-form';
import { failureText, isCartAnswer, type CartAnswer, type CartCall } from './model';
import { UNABLE_TO_OPEN_FORM, UPDATE_MISSING_INFORMATION } from './texts';

export const CART_API = '/api/commerce/cart';

/**
 * A call's new cart, or the text the shopper reads; when the answers to a product's form were
 * refused, also a message per field.
 */
export type CartResult =
  | { readonly ok: true; readonly answer: CartAnswer }
  | { readonly ok: false; readonly message: string; readonly fieldErrors?: FieldErrors };

export type LineFormResult = { readonly ok: true; readonly lineForm: LineForm } | { readonly ok: false; readonly message: string };

export interface CartApi {
  load(): Promise<CartResult>;
  /** Adds a variant, with the answers to its product's form when it has one. */
  add(itemId: string, sku: string, quantity: number, answers?: Answers): Promise<CartResult>;
  /** `line` is the line's id (a SKU names the variant's only line). */
  changeQuantity(line: string, quantity: number): Promise<CartResult>;
  remove(line: string): Promise<CartResult>;
  /** A line's product form with its answers so far. */
  openForm(line: string): Promise<LineFormResult>;
  /** New answers for a line. */
  updateForm(line: string, answers: Answers): Promise<CartResult>;
  applyCoupon(code: string): Promise<CartResult>;
  removeCoupon(code: string): Promise<CartResult>;
  setLocation(country: string, region: string, postalCode: string): Promise<CartResult>;
  selectShippingOption(id: string): Promise<CartResult>;
}

export function createCartApi(requests: RequestClient, events: EventTarget): CartApi {
  const finish = (call: CartCall, outcome: RequestOutcome<unknown>): CartResult => {
    if (!outcome.ok) {
      const fieldErrors = fieldErrorsOf(outcome.failure.body);
      if (fieldErrors) return { ok: false, message: UPDATE_MISSING_INFORMATION, fieldErrors };
      return { ok: false, message: failureText(call, outcome.failure) };
    }
    if (!isCartAnswer(outcome.data)) return { ok: false, message: failureText(call, { reason: 'parse', status: 200, body: undefined }) };
    announceCart(events, outcome.data.cart);
    return { ok: true, answer: outcome.data };
  };
  const silent = { onFailure: () => {}, format: 'json' as const };
  const path = (segment: string) => `${CART_API}/${segment}`;
  const line = (id: string) => path(`items/${encodeURIComponent(id)}`);
  return {
    load: async () => finish('update', await requests.get(CART_API, undefined, { onFailure: () => {} })),
    add: async (itemId, sku, quantity, answers) =>
      finish(
        'add',
        await requests.post(path('items'), answers === undefined ? { itemId, sku, quantity } : { itemId, sku, quantity, form: answers }, silent),
      ),
    changeQuantity: async (id, quantity) => finish('update', await requests.put(line(id), { quantity }, silent)),
    remove: async (id) => finish('remove', await requests.delete(line(id), undefined, silent)),
    openForm: async (id) => {
      const outcome = await requests.get(`${line(id)}/form`, undefined, { onFailure: () => {} });
      if (outcome.ok && isLineForm(outcome.data)) return { ok: true, lineForm: outcome.data };
      return { ok: false, message: UNABLE_TO_OPEN_FORM };
    },
    updateForm: async (id, answers) => finish('update-form', await requests.put(`${line(id)}/form`, { form: answers }, silent)),
    applyCoupon: async (code) => finish('coupon', await requests.post(path('coupons'), { code }, silent)),
    removeCoupon: async (code) =>
      finish('coupon', await requests.delete(path(`coupons/${encodeURIComponent(code)}`), undefined, silent)),
    setLocation: async (country, region, postalCode) =>
      finish('shipping', await requests.put(path('shipping-location'), { country, region, postalCode }, silent)),
    selectShippingOption: async (id) => finish('shipping', await requests.put(path('shipping-option'), { id }, silent)),
  };
}
