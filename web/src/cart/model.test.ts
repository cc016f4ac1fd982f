//! Cart failures read the cart texts of spec 000 s8; quantities are whole numbers within the line limit.

import { describe, expect, it } from 'vitest';
import { couponProblem, failureText, isCartAnswer, parseQuantity } from './model';
import { answerWith, cartWith } from './fixtures.test-support';

const failure = (status: number, body?: Record<string, unknown>) => ({
  reason: status === 0 ? ('network' as const) : body ? ('server' as const) : ('status' as const),
  status,
  body,
});

describe('failureText', () => {
  it('asks to check the connection when no answer came', () => {
    expect(failureText('update', failure(0))).toBe('Please check your internet connection');
  });

  it('shows each call its own text', () => {
    expect(failureText('add', failure(409))).toBe('Unable to add item');
    expect(failureText('update', failure(409))).toBe('Unable to update quantity');
    expect(failureText('remove', failure(404))).toBe('Unable to remove item');
    expect(failureText('shipping', failure(409))).toBe('Update the missing or invalid information above');
    expect(failureText('coupon', failure(503))).toBe('Please try again');
  });

  it("shows a refused coupon's reason from the server", () => {
    expect(failureText('coupon', failure(400, { error: 'This coupon has expired.' }))).toBe('This coupon has expired.');
    // Other calls never show server text, only the spec's.
    expect(failureText('update', failure(400, { error: 'quantity must be a number.' }))).toBe('Unable to update quantity');
  });

  it('says why a subscription and other items cannot share a cart', () => {
    const alone = 'A subscription is bought on its own. Check out or remove the other items in your cart first.';
    expect(failureText('add', failure(400, { error: alone, reason: 'SUBSCRIPTION_ALONE' }))).toBe(alone);
    expect(failureText('add', failure(400, { error: 'Sold out', reason: 'OUT_OF_STOCK' }))).toBe('Unable to add item');
  });
});

describe('cart answers', () => {
  it('are recognised by their shape', () => {
    expect(isCartAnswer(answerWith())).toBe(true);
    expect(isCartAnswer({ cart: {} })).toBe(false);
    expect(isCartAnswer(null)).toBe(false);
  });

  it('name the reason a coupon no longer applies', () => {
    const cart = cartWith({ invalidCoupons: [{ code: 'GONE', reason: 'This coupon has expired.' }] });
    expect(couponProblem(cart, 'GONE')).toBe('This coupon has expired.');
    expect(couponProblem(cart, 'OTHER')).toBeUndefined();
  });
});

describe('parseQuantity', () => {
  it.each([
    ['3', 3],
    [' 0 ', 0],
    ['9999', 9999],
    ['10000', undefined],
    ['-1', undefined],
    ['1.5', undefined],
    ['', undefined],
    ['two', undefined],
  ])('%s reads %s', (text, expected) => {
    expect(parseQuantity(text)).toBe(expected);
  });
});
