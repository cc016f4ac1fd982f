//! The cart island's editor of a line's answers, through the real request layer over a mocked
//! fetch: it opens the form, says 'Unable to open form' and 'Unable to update form' when the
//! calls fail, shows refused answers at their fields and keeps what the shopper typed; and it
//! takes over the server's cart without a moment of an empty cart.

import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerWith } from '../cart/fixtures.test-support';
import type { Cart } from '../cart/model';
import { createRequestClient } from '../runtime/request/client';
import { mount } from './cart';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const LINE = 'MUG-L~0123456789abcdef';

const engraved = (name: string): Partial<Cart> => ({
  entries: [
    {
      ...answerWith().cart.entries[0]!,
      lineId: name === 'Ada' ? LINE : 'MUG-L~fedcba9876543210',
      answers: [{ fieldId: 'engraving', title: 'Name to engrave', value: name }],
    },
  ],
});

const LINE_FORM = {
  lineId: LINE,
  productName: 'Sea Glass Mug',
  sku: 'MUG-L',
  form: {
    title: 'Engraving',
    fields: [
      { id: 'engraving', type: 'text', title: 'Name to engrave', description: 'Up to 20 letters.', placeholder: '', required: true, maxLength: 20 },
    ],
  },
  answers: { engraving: 'Ada' },
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type Route = (init: RequestInit) => Response | Promise<Response>;

let routes: Record<string, Route>;
let element: HTMLElement;
let unmount: (() => void) | undefined;

function answer(method: string, path: string, route: Route): void {
  routes[`${method} ${path}`] = route;
}

const settle = async () => {
  await act(async () => {
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  });
};

beforeEach(async () => {
  document.cookie = 'crumb=c1; path=/';
  routes = {};
  answer('GET', '/api/commerce/cart', () => json(answerWith(engraved('Ada'))));
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'https://shop.example');
    const route = routes[`${init?.method ?? 'GET'} ${decodeURIComponent(url.pathname)}`];
    if (!route) throw new Error(`no route for ${init?.method} ${url.pathname}`);
    return route(init ?? {});
  });
  const requests = createRequestClient({
    fetch: fetchMock,
    document,
    events: window,
    baseUrl: 'https://shop.example/cart',
    showSystemError: () => {},
  });
  (window as unknown as { Vitrine: unknown }).Vitrine = { requests };
  element = document.createElement('div');
  element.id = 'sqs-cart-root';
  element.innerHTML = '<p>The server cart</p>';
  document.body.append(element);
  act(() => {
    unmount = mount(element);
  });
  await settle();
});

afterEach(() => {
  if (unmount) act(() => unmount!());
  unmount = undefined;
  document.body.replaceChildren();
});

const button = (name: RegExp) =>
  [...element.querySelectorAll<HTMLButtonElement>('button')].find((candidate) => name.test(candidate.textContent ?? ''))!;

async function click(target: HTMLElement): Promise<void> {
  act(() => target.click());
  await settle();
}

function type(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

const engravingInput = () => element.querySelector<HTMLInputElement>('.cart-line-form input')!;
const alertText = () => element.querySelector('.cart-line-form [role="alert"]')?.textContent;

describe('the cart island with product forms', () => {
  it('shows a line’s answers and an Edit button named by the product', () => {
    expect(element.querySelector('.cart-line__answers')!.textContent).toBe('Name to engraveAda');
    const edit = button(/^Edit/);
    expect(edit.textContent).toBe('Edit details of Sea Glass Mug');
    expect(edit.getAttribute('aria-expanded')).toBe('false');
  });

  it("says 'Unable to open form' when the form cannot be loaded", async () => {
    answer('GET', `/api/commerce/cart/items/${LINE}/form`, () => json({ error: 'Unable to open form' }, 500));
    await click(button(/^Edit/));
    expect(button(/^Edit/).getAttribute('aria-expanded')).toBe('true');
    expect(alertText()).toBe('Unable to open form');
    expect(element.querySelector('.cart-line-form input')).toBeNull();
  });

  it("keeps the typed answer and says 'Unable to update form' when saving fails", async () => {
    answer('GET', `/api/commerce/cart/items/${LINE}/form`, () => json(LINE_FORM));
    await click(button(/^Edit/));
    expect(engravingInput().value).toBe('Ada');
    expect(document.activeElement).toBe(engravingInput());
    expect(element.querySelector('.cart-line-form label')!.textContent).toBe('Name to engrave*');

    answer('PUT', `/api/commerce/cart/items/${LINE}/form`, () => {
      throw new TypeError('Failed to fetch');
    });
    type(engravingInput(), 'Bo');
    await click(button(/^Save/));
    expect(alertText()).toBe('Unable to update form');
    expect(engravingInput().value).toBe('Bo');

    answer('PUT', `/api/commerce/cart/items/${LINE}/form`, () => json({ error: 'Unable to update form', reason: 'UNAVAILABLE' }, 500));
    await click(button(/^Save/));
    expect(alertText()).toBe('Unable to update form');
    expect(element.querySelector('.commerce-alert:not(.cart-line-form *)')).toBeNull();
  });

  it('shows refused answers at their field', async () => {
    answer('GET', `/api/commerce/cart/items/${LINE}/form`, () => json(LINE_FORM));
    await click(button(/^Edit/));
    answer('PUT', `/api/commerce/cart/items/${LINE}/form`, () =>
      json(
        {
          error: 'Update the missing or invalid information above',
          reason: 'INVALID_ANSWERS',
          target: 'engraving',
          errors: { engraving: 'Name to engrave is required.' },
        },
        400,
      ),
    );
    type(engravingInput(), '');
    await click(button(/^Save/));
    const input = engravingInput();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = element.querySelector(`#${input.id}-error`)!;
    expect(message.textContent).toBe('Name to engrave is required.');
    expect(input.getAttribute('aria-describedby')).toBe(`${input.id}-description ${input.id}-error`);
    expect(alertText()).toBe('Update the missing or invalid information above');
    expect(document.activeElement).toBe(input);
  });

  it('saves new answers, closes the editor and shows them on the line', async () => {
    answer('GET', `/api/commerce/cart/items/${LINE}/form`, () => json(LINE_FORM));
    await click(button(/^Edit/));
    let sent: unknown;
    answer('PUT', `/api/commerce/cart/items/${LINE}/form`, (init) => {
      sent = JSON.parse(String(init.body));
      return json(answerWith(engraved('Bo')));
    });
    type(engravingInput(), 'Bo');
    await click(button(/^Save/));
    expect(sent).toEqual({ form: { engraving: 'Bo' } });
    expect(element.querySelector('.cart-line-form')).toBeNull();
    expect(element.querySelector('.cart-line__answers dd')!.textContent).toBe('Bo');
    expect(document.activeElement).toBe(button(/^Edit/));
  });
});

describe('the cart island taking over the server’s cart', () => {
  it('never leaves the cart empty between the server’s markup and its own', async () => {
    const page = document.createElement('div');
    page.innerHTML = '<p>The server cart</p>';
    document.body.append(page);
    // A mutation record is delivered before the browser can paint: an empty element at any
    // delivery is a frame the page could show without a cart, and a layout shift below it.
    const emptyAtDelivery: boolean[] = [];
    const observer = new MutationObserver(() => emptyAtDelivery.push(page.childNodes.length === 0));
    observer.observe(page, { childList: true });
    let stop: (() => void) | undefined;
    act(() => {
      stop = mount(page);
    });
    await settle();
    observer.disconnect();
    expect(page.querySelector('.cart-line__answers')).not.toBeNull();
    expect(emptyAtDelivery.length).toBeGreaterThan(0);
    expect(emptyAtDelivery).not.toContain(true);
    act(() => stop!());
  });
});
