//! Add to cart without leaving the product page: the server's add-to-cart form (which works on
//! its own by posting to /cart) is sent through the cart API instead, the header's indicator
//! follows, and the shopper reads what happened next to the button. Plain DOM, no React.

import type { CartApi } from './api';
import { clearFieldMessages, showFieldMessages } from './field-messages';
import { answersIn } from './line-form';
import { parseQuantity } from './model';
import { UNABLE_TO_ADD_ITEM } from './texts';

export const ADD_TO_CART_SELECTOR = 'form.add-to-cart';
/** What a successful add says (our text; the specification shows none). */
export const ADDED_TEXT = 'Added to your cart.';
export const VIEW_CART_TEXT = 'View cart';

function statusElement(form: HTMLFormElement): HTMLElement {
  const existing = form.querySelector<HTMLElement>('.add-to-cart__status');
  if (existing) return existing;
  const status = form.ownerDocument.createElement('div');
  status.className = 'add-to-cart__status';
  status.setAttribute('role', 'status');
  form.append(status);
  return status;
}

function say(form: HTMLFormElement, message: string, withCartLink: boolean): void {
  const status = statusElement(form);
  const doc = form.ownerDocument;
  const text = doc.createElement('span');
  text.textContent = message;
  status.replaceChildren(text);
  if (withCartLink) {
    const link = doc.createElement('a');
    link.href = '/cart';
    link.className = 'add-to-cart__view';
    link.textContent = VIEW_CART_TEXT;
    status.append(' ', link);
  }
}

/** Sends one add-to-cart form through the API and reports the outcome in the form. */
export async function submitAddToCart(form: HTMLFormElement, api: CartApi): Promise<boolean> {
  const data = new FormData(form);
  const itemId = String(data.get('itemId') ?? '');
  const sku = String(data.get('sku') ?? '');
  const quantity = parseQuantity(String(data.get('quantity') ?? ''));
  if (itemId === '' || sku === '' || quantity === undefined || quantity === 0) {
    say(form, UNABLE_TO_ADD_ITEM, false);
    return false;
  }
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = true;
  // The answers to the product's form, when it has one; the server checks them.
  const answers = form.hasAttribute('data-product-form') ? answersIn(data) : undefined;
  try {
    const result = await api.add(itemId, sku, quantity, answers);
    if (!result.ok) {
      if (result.fieldErrors) showFieldMessages(form, result.fieldErrors);
      else clearFieldMessages(form);
      say(form, result.message, false);
      return false;
    }
    clearFieldMessages(form);
    const ownWarning = result.answer.warnings.find((warning) => warning.target === sku);
    say(form, ownWarning ? ownWarning.message : ADDED_TEXT, true);
    return true;
  } finally {
    if (button) button.disabled = false;
  }
}

/** Takes over every add-to-cart form in `root` (now and later ones); returns a stop function. */
export function enhanceAddToCart(root: Document, api: CartApi): () => void {
  // The server's messages stand at a product form's fields, in the words of 000 s5, instead of
  // the browser's own bubbles; without this script the browser's checks still help.
  for (const form of root.querySelectorAll<HTMLFormElement>(`${ADD_TO_CART_SELECTOR}[data-product-form]`)) form.noValidate = true;
  const listener = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches(ADD_TO_CART_SELECTOR)) return;
    event.preventDefault();
    void submitAddToCart(form, api);
  };
  root.addEventListener('submit', listener);
  return () => root.removeEventListener('submit', listener);
}
