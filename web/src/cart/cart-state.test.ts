//! The cart island's reducer: answers replace the cart, failures keep it and say why.

import { describe, expect, it } from 'vitest';
import { cartReducer, initialCartState } from './cart-state';
import { answerWith, cartWith } from './fixtures.test-support';

describe('cartReducer', () => {
  const start = initialCartState(cartWith());

  it('marks a call running, then takes the answer and its warnings', () => {
    const busy = cartReducer(start, { type: 'start' });
    expect(busy.busy).toBe(true);
    const warning = { code: 'QUANTITY_REDUCED', target: 'MUG-L', message: 'Only 3 are available, so your cart holds 3.' };
    const done = cartReducer(busy, { type: 'finish', result: { ok: true, answer: answerWith({ totalQuantity: 3 }, [warning]) } });
    expect(done).toMatchObject({ busy: false, alert: undefined, warnings: [warning.message] });
    expect(done.cart.totalQuantity).toBe(3);
  });

  it('keeps the cart on a failure and shows its text as the alert', () => {
    const failed = cartReducer(start, { type: 'finish', result: { ok: false, message: 'Unable to remove item' } });
    expect(failed.cart).toBe(start.cart);
    expect(failed.alert).toBe('Unable to remove item');
  });

  it("puts a coupon's refusal beside the coupon field, and clears it on the next answer", () => {
    const refused = cartReducer(start, { type: 'finish', coupon: true, result: { ok: false, message: 'This coupon has expired.' } });
    expect(refused).toMatchObject({ couponError: 'This coupon has expired.', alert: undefined });
    const next = cartReducer(refused, { type: 'finish', result: { ok: true, answer: answerWith() } });
    expect(next.couponError).toBeUndefined();
  });
});
