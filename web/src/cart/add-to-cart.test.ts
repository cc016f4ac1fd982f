//! Add to cart without leaving the page: the form goes through the cart API, the header's indicator
//! follows, and the shopper reads the outcome beside the button.

import { describe, expect, it, vi } from 'vitest';
import type { CartApi, CartResult } from './api';
import { ADDED_TEXT, enhanceAddToCart, submitAddToCart } from './add-to-cart';
import { announceCart, followCart } from './events';
import { answerWith } from './fixtures.test-support';

function productForm(quantity = '2'): HTMLFormElement {
  document.body.innerHTML = `
    <a data-cart-indicator href="/cart"><span data-cart-count></span><span data-cart-subtotal></span></a>
    <form class="add-to-cart" method="post" action="/cart">
      <input type="hidden" name="itemId" value="mug">
      <select name="sku"><option value="MUG-S">Small</option><option value="MUG-L" selected>Large</option></select>
      <input name="quantity" value="${quantity}">
      <button type="submit">Add to cart</button>
    </form>`;
  return document.querySelector('form')!;
}

function apiAnswering(result: CartResult, events: EventTarget = window): CartApi {
  const add = vi.fn(async () => {
    if (result.ok) announceCart(events, result.answer.cart);
    return result;
  });
  return { add } as unknown as CartApi;
}

describe('add to cart', () => {
  it('adds the chosen variant and quantity, updates the indicator and links to the cart', async () => {
    const form = productForm();
    const stop = followCart(document, window);
    const api = apiAnswering({ ok: true, answer: answerWith({ indicator: { items: 2, subtotal: '$64.00' } }) });
    expect(await submitAddToCart(form, api)).toBe(true);
    expect(api.add).toHaveBeenCalledWith('mug', 'MUG-L', 2, undefined);
    const status = form.querySelector('[role="status"]')!;
    expect(status.textContent).toBe(`${ADDED_TEXT} View cart`);
    expect(status.querySelector('a')!.getAttribute('href')).toBe('/cart');
    const indicator = document.querySelector<HTMLElement>('[data-cart-indicator]')!;
    expect(indicator.getAttribute('aria-label')).toBe('2 items in cart');
    expect(indicator.querySelector('[data-cart-count]')!.textContent).toBe('2');
    expect(indicator.hasAttribute('data-initialized')).toBe(true);
    stop();
  });

  it("says the stock warning instead when less was added", async () => {
    const form = productForm('9');
    const warning = { code: 'QUANTITY_REDUCED', target: 'MUG-L', message: 'Only 3 are available, so your cart holds 3.' };
    await submitAddToCart(form, apiAnswering({ ok: true, answer: answerWith({}, [warning]) }));
    expect(form.querySelector('[role="status"] span')!.textContent).toBe(warning.message);
  });

  it('shows the cart texts on failure and refuses a bad quantity without calling', async () => {
    const form = productForm();
    await submitAddToCart(form, apiAnswering({ ok: false, message: 'Please check your internet connection' }));
    expect(form.querySelector('[role="status"]')!.textContent).toBe('Please check your internet connection');
    const bad = productForm('lots');
    const api = apiAnswering({ ok: false, message: 'x' });
    expect(await submitAddToCart(bad, api)).toBe(false);
    expect(api.add).not.toHaveBeenCalled();
    expect(bad.querySelector('[role="status"]')!.textContent).toBe('Unable to add item');
  });

  it('takes over the form submission instead of posting the page', () => {
    const form = productForm();
    const api = apiAnswering({ ok: true, answer: answerWith() });
    const stop = enhanceAddToCart(document, api);
    const event = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(api.add).toHaveBeenCalledTimes(1);
    stop();
  });

  describe('with a product form', () => {
    function engravedForm(): HTMLFormElement {
      document.body.innerHTML = `
        <form class="add-to-cart" method="post" action="/cart" data-product-form>
          <input type="hidden" name="itemId" value="mug">
          <input type="hidden" name="sku" value="MUG-L">
          <input name="quantity" value="1">
          <fieldset class="product-form"><legend>Engraving</legend>
            <div class="field" data-answer-field="engraving">
              <label for="p-answer-0">Name to engrave</label>
              <p id="p-answer-0-description">Up to 20 letters.</p>
              <input id="p-answer-0" name="form[engraving]" value="" aria-describedby="p-answer-0-description" required>
            </div>
            <fieldset class="field" data-answer-field="wrap"><legend>Gift wrap</legend>
              <input id="p-answer-1" type="radio" name="form[wrap]" value="None" checked><label for="p-answer-1">None</label>
              <input id="p-answer-1-1" type="radio" name="form[wrap]" value="Linen"><label for="p-answer-1-1">Linen</label>
            </fieldset>
          </fieldset>
          <p class="add-to-cart__status" role="status"></p>
          <button type="submit">Add to cart</button>
        </form>`;
      return document.querySelector('form')!;
    }

    it('sends the answers with the add', async () => {
      const form = engravedForm();
      form.querySelector<HTMLInputElement>('[name="form[engraving]"]')!.value = 'Ada';
      const api = apiAnswering({ ok: true, answer: answerWith() });
      await submitAddToCart(form, api);
      expect(api.add).toHaveBeenCalledWith('mug', 'MUG-L', 1, { engraving: 'Ada', wrap: 'None' });
    });

    it('shows refused answers at their fields, then clears them once the add succeeds', async () => {
      const form = engravedForm();
      const refusal = {
        ok: false as const,
        message: 'Update the missing or invalid information above',
        fieldErrors: { engraving: 'Name to engrave is required.' },
      };
      await submitAddToCart(form, apiAnswering(refusal));
      const control = form.querySelector<HTMLInputElement>('#p-answer-0')!;
      const message = form.querySelector('#p-answer-0-error')!;
      expect(message.textContent).toBe('Name to engrave is required.');
      expect(message.closest('[data-answer-field]')!.getAttribute('data-answer-field')).toBe('engraving');
      expect(control.getAttribute('aria-invalid')).toBe('true');
      expect(control.getAttribute('aria-describedby')).toBe('p-answer-0-description p-answer-0-error');
      expect(document.activeElement).toBe(control);
      expect(form.querySelector('[role="status"]')!.textContent).toBe(refusal.message);
      expect(form.querySelector('#p-answer-1')!.hasAttribute('aria-invalid')).toBe(false);

      control.value = 'Ada';
      await submitAddToCart(form, apiAnswering({ ok: true, answer: answerWith() }));
      expect(form.querySelector('.field__error')).toBeNull();
      expect(control.hasAttribute('aria-invalid')).toBe(false);
      expect(control.getAttribute('aria-describedby')).toBe('p-answer-0-description');
    });

    it("turns off the browser's bubbles so the server's messages show", () => {
      const form = engravedForm();
      const stop = enhanceAddToCart(document, apiAnswering({ ok: true, answer: answerWith() }));
      expect(form.noValidate).toBe(true);
      stop();
    });
  });
});
