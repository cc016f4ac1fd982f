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

describe('product form calls', () => {
  const lineForm = {
    lineId: 'MUG-L~0123456789abcdef',
    productName: 'Sea Glass Mug',
    sku: 'MUG-L',
    form: {
      title: 'Engraving',
      fields: [{ id: 'engraving', type: 'text', title: 'Name to engrave', description: '', placeholder: '', required: true, maxLength: 20 }],
    },
    answers: { engraving: 'Ada' },
  };
  const failure = (status: number, body?: Record<string, unknown>) => ({
    ok: false as const,
    failure: {
      reason: status === 0 ? ('network' as const) : ('server' as const),
      status,
      url: '/api/commerce/cart/items/x/form',
      message: '',
      body,
      crumbFail: false,
      loginRequired: false,
      authorizationFail: false,
    },
  });

  it("opens a line's form by its id and saves answers as JSON", async () => {
    const { requests, calls } = fakeRequests({ ok: true, data: lineForm });
    const api = createCartApi(requests, new EventTarget());
    expect(await api.openForm('MUG-L~0123456789abcdef')).toEqual({ ok: true, lineForm });
    const saving = fakeRequests({ ok: true, data: answerWith() });
    await createCartApi(saving.requests, new EventTarget()).updateForm('MUG-L~0123456789abcdef', { engraving: 'Bo' });
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/commerce/cart/items/MUG-L~0123456789abcdef/form' });
    expect(saving.calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/commerce/cart/items/MUG-L~0123456789abcdef/form',
      data: { form: { engraving: 'Bo' } },
      format: 'json',
    });
  });

  it("says 'Unable to open form' when the form cannot be had, whatever the cause", async () => {
    for (const outcome of [failure(0), failure(500, { error: 'Unable to open form' }), { ok: true as const, data: { nope: 1 } }]) {
      const { requests } = fakeRequests(outcome);
      expect(await createCartApi(requests, new EventTarget()).openForm('MUG-L')).toEqual({ ok: false, message: 'Unable to open form' });
    }
  });

  it("says 'Unable to update form' when saving fails, on the network or on the server", async () => {
    for (const outcome of [failure(0), failure(500, { error: 'Unable to update form' }), failure(404)]) {
      const { requests } = fakeRequests(outcome);
      const result = await createCartApi(requests, new EventTarget()).updateForm('MUG-L', { engraving: 'Bo' });
      expect(result).toEqual({ ok: false, message: 'Unable to update form' });
    }
  });

  it('hands refused answers back by field', async () => {
    const refused = failure(400, {
      error: 'Update the missing or invalid information above',
      reason: 'INVALID_ANSWERS',
      errors: { engraving: 'Name to engrave is required.' },
    });
    const { requests } = fakeRequests(refused);
    const api = createCartApi(requests, new EventTarget());
    for (const result of [await api.updateForm('MUG-L', { engraving: '' }), await api.add('mug', 'MUG-L', 1, { engraving: '' })]) {
      expect(result).toEqual({
        ok: false,
        message: 'Update the missing or invalid information above',
        fieldErrors: { engraving: 'Name to engrave is required.' },
      });
    }
  });
});
