//! Product island (product pages and the product block, 43): shows the chosen variant's price and stock, and adds to the cart through the API with the spec's failure texts.

import {
  ADD_TO_CART_LABEL,
  ADD_TO_CART_URL,
  ADDED_TO_CART,
  SOLD_OUT_LABEL,
  addFailureText,
  addToCartBody,
  firstWarning,
  offerFor,
  parseProductProps,
  priceParts,
  type PriceParts,
} from '../commerce/product-purchase';
import type { IslandUnmount } from '../runtime/island-contract';
import type { RequestClient } from '../runtime/request/client';

/** Fired on window after an add succeeds, with the cart answer, so the header indicator can sync. */
export const CART_CHANGED_EVENT = 'vitrine:cart-changed';
/** Where a successful add leads, as the form's no-JavaScript answer does. */
const CART_PAGE_URL = '/cart';

interface VitrineGlobal {
  readonly requests?: RequestClient;
}

/** Rewrites the price line the way the server's `partials/price.html` writes it. */
function renderPrice(line: HTMLElement, parts: PriceParts): void {
  const doc = line.ownerDocument;
  const span = (className: string, text: string): HTMLElement => {
    const element = doc.createElement('span');
    element.className = className;
    element.textContent = text;
    return element;
  };
  const nodes: Node[] = [];
  if (parts.sale) nodes.push(span('visually-hidden', 'Sale price:'), doc.createTextNode(' '));
  nodes.push(span('price__current', parts.current));
  if (parts.regular !== null) {
    const struck = doc.createElement('s');
    struck.className = 'price__regular';
    struck.append(span('visually-hidden', 'Regular price:'), doc.createTextNode(` ${parts.regular}`));
    nodes.push(doc.createTextNode(' '), struck);
  }
  if (parts.sale) nodes.push(doc.createTextNode(' '), span('badge badge--sale', 'Sale'));
  if (parts.soldOut) nodes.push(doc.createTextNode(' '), span('badge badge--sold-out', SOLD_OUT_LABEL));
  line.replaceChildren(...nodes);
}

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const props = parseProductProps(rawProps);
  if (!(element instanceof HTMLFormElement)) throw new Error('product island: the island is not a form');
  const form = element;
  const requests = (window as unknown as { Vitrine?: VitrineGlobal }).Vitrine?.requests;
  if (!requests) throw new Error('product island: the runtime request layer is missing');
  const skuField = form.elements.namedItem('sku');
  const quantityField = form.elements.namedItem('quantity');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  const status = form.querySelector<HTMLElement>('.add-to-cart__status');
  if (!(skuField instanceof HTMLSelectElement || skuField instanceof HTMLInputElement) || !button || !status) {
    throw new Error('product island: the form lacks its SKU, button or status');
  }
  const priceLine = form.closest('.product-page__details, .product-block__details')?.querySelector<HTMLElement>('.price');
  const original = priceLine?.cloneNode(true);
  let busy = false;

  const showVariant = (): void => {
    const offer = offerFor(props, skuField.value);
    if (!offer) return;
    if (priceLine) renderPrice(priceLine, priceParts(offer));
    button.disabled = offer.soldOut || busy;
    button.textContent = offer.soldOut ? SOLD_OUT_LABEL : ADD_TO_CART_LABEL;
  };

  const onSubmit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    status.textContent = '';
    const quantity = quantityField instanceof HTMLInputElement ? quantityField.value : '1';
    const outcome = await requests.post(ADD_TO_CART_URL, addToCartBody(props.itemId, skuField.value, quantity), {
      format: 'json',
      onFailure: () => {},
    });
    busy = false;
    button.removeAttribute('aria-busy');
    if (outcome.ok) {
      status.textContent = firstWarning(outcome.data) ?? ADDED_TO_CART;
      status.classList.remove('add-to-cart__status--error');
      window.dispatchEvent(new CustomEvent(CART_CHANGED_EVENT, { detail: outcome.data }));
      // The same destination as the form without JavaScript: the cart, where any warning
      // (fewer left than asked) is listed with the line it concerns.
      window.location.assign(CART_PAGE_URL);
      return;
    } else {
      status.textContent = addFailureText(outcome.failure.status);
      status.classList.add('add-to-cart__status--error');
    }
    showVariant();
  };

  const submitListener = (event: SubmitEvent): void => void onSubmit(event);
  skuField.addEventListener('change', showVariant);
  form.addEventListener('submit', submitListener);
  return () => {
    skuField.removeEventListener('change', showVariant);
    form.removeEventListener('submit', submitListener);
    if (priceLine && original) priceLine.replaceWith(original);
  };
}
