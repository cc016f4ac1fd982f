//! The cart calls go to the cart API with JSON bodies, answer the new cart or the shopper's text,
//! and tell the page the cart changed.

import { describe, expect, it, vi } from 'vitest';
import type { RequestClient, RequestOutcome } from '../runtime/request/client';
import { createCartApi } from './api';
import { CART_UPDATED_EVENT, type CartFigures } from './events';
import { answerWith } from './fixtures.test-support';

function fakeRequests(outcome: RequestOutcome<unknown>) {
  const calls: { method: string; url: string; data: unknown; format: unknown }[] = [];
  const record =
    (method: string) =>
    async (url: string, data?: unknown, options?: { format?: unknown }) => {
      calls.push({ method, url, data, format: options?.format });
      return outcome;
    };
  const requests = {
    request: vi.fn(),
    get: record('GET'),
    post: record('POST'),
    put: record('PUT'),
    delete: record('DELETE'),
  } as unknown as RequestClient;
  return { requests, calls };
}

describe('cart api', () => {
  it('sends each call to its route as JSON and announces the new cart', async () => {
    const { requests, calls } = fakeRequests({ ok: true, data: answerWith({ indicator: { items: 5, subtotal: '$160.00' } }) });
    const events = new EventTarget();
    const heard: CartFigures[] = [];
    events.addEventListener(CART_UPDATED_EVENT, (event) => heard.push((event as CustomEvent<CartFigures>).detail));
    const api = createCartApi(requests, events);

    const result = await api.changeQuantity('MUG L/2', 5);
    expect(result.ok).toBe(true);
    await api.add('mug', 'MUG-L', 1);
    await api.remove('MUG-L');
    await api.applyCoupon('WELCOME10');
    await api.removeCoupon('WELCOME10');
    await api.setLocation('US', 'NY', '10001');
    await api.selectShippingOption('standard');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'PUT /api/commerce/cart/items/MUG%20L%2F2',
      'POST /api/commerce/cart/items',
      'DELETE /api/commerce/cart/items/MUG-L',
      'POST /api/commerce/cart/coupons',
      'DELETE /api/commerce/cart/coupons/WELCOME10',
      'PUT /api/commerce/cart/shipping-location',
      'PUT /api/commerce/cart/shipping-option',
    ]);
    expect(calls[0]).toMatchObject({ data: { quantity: 5 }, format: 'json' });
    expect(calls[5]).toMatchObject({ data: { country: 'US', region: 'NY', postalCode: '10001' } });
    expect(heard).toHaveLength(7);
    expect(heard[0]).toEqual({ items: 5, subtotal: '$160.00' });
  });

  it('answers the text of a failure and announces nothing', async () => {
    const { requests } = fakeRequests({
      ok: false,
      failure: {
        reason: 'network',
        status: 0,
        url: '/api/commerce/cart/items/MUG-L',
        message: '',
        body: undefined,
        crumbFail: false,
        loginRequired: false,
        authorizationFail: false,
      },
    });
    const events = new EventTarget();
    const listener = vi.fn();
    events.addEventListener(CART_UPDATED_EVENT, listener);
    const result = await createCartApi(requests, events).remove('MUG-L');
    expect(result).toEqual({ ok: false, message: 'Please check your internet connection' });
    expect(listener).not.toHaveBeenCalled();
  });

  it('treats an answer that is not a cart as a failure of the call', async () => {
    const { requests } = fakeRequests({ ok: true, data: { nope: true } });
    const result = await createCartApi(requests, new EventTarget()).changeQuantity('MUG-L', 1);
    expect(result).toEqual({ ok: false, message: 'Unable to update quantity' });
  });
});
