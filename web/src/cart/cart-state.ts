//! The cart island's state as a reducer: the cart as last answered, whether a call is running,
//! and what the shopper reads (a failure's text, the call's warnings, a coupon's refusal).

import type { CartResult } from './api';
import type { Cart } from './model';

export interface CartViewState {
  readonly cart: Cart;
  /** A call is running; controls are disabled so calls do not cross. */
  readonly busy: boolean;
  /** The last failure's text (000 s8), shown as an alert. */
  readonly alert: string | undefined;
  /** The last call's warnings (stock) and the cart's standing ones. */
  readonly warnings: readonly string[];
  /** Why the last coupon was refused, shown beside the coupon field. */
  readonly couponError: string | undefined;
}

export type CartAction =
  | { readonly type: 'start' }
  /**
   * A call ended. A refused coupon is the coupon field's error; a call whose failure its own
   * part of the cart shows (`shownThere`, the editor of a line's answers) leaves no alert.
   */
  | { readonly type: 'finish'; readonly result: CartResult; readonly coupon?: boolean; readonly shownThere?: boolean };

export function initialCartState(cart: Cart, warnings: readonly string[] = []): CartViewState {
  return { cart, busy: false, alert: undefined, warnings, couponError: undefined };
}

export function cartReducer(state: CartViewState, action: CartAction): CartViewState {
  switch (action.type) {
    case 'start':
      return { ...state, busy: true };
    case 'finish': {
      const { result } = action;
      if (result.ok) {
        return {
          cart: result.answer.cart,
          busy: false,
          alert: undefined,
          warnings: result.answer.warnings.map((warning) => warning.message),
          couponError: undefined,
        };
      }
      if (action.shownThere) return { ...state, busy: false };
      // A refused coupon is the coupon field's error; anything else is the cart's alert.
      return action.coupon
        ? { ...state, busy: false, alert: undefined, couponError: result.message }
        : { ...state, busy: false, alert: result.message, couponError: undefined };
    }
  }
}
