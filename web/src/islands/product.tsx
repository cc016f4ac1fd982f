//! Product island (product pages and the product block, 43): shows the chosen variant's price,
//! marks and stock as the option picker changes. Adding to the cart is the common script's
//! (`cart/add-to-cart.ts`), which keeps the shopper on the page and the header's indicator in step.

import {
  ADD_TO_CART_LABEL,
  SOLD_OUT_LABEL,
  offerFor,
  parseProductProps,
  priceParts,
  type PriceParts,
} from '../commerce/product-purchase';
import type { IslandUnmount } from '../runtime/island-contract';

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
  const skuField = form.elements.namedItem('sku');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (!(skuField instanceof HTMLSelectElement || skuField instanceof HTMLInputElement) || !button) {
    throw new Error('product island: the form lacks its SKU or button');
  }
  const priceLine = form.closest('.product-page__details, .product-block__details')?.querySelector<HTMLElement>('.price');
  const original = priceLine?.cloneNode(true);

  const showVariant = (): void => {
    const offer = offerFor(props, skuField.value);
    if (!offer) return;
    if (priceLine) renderPrice(priceLine, priceParts(offer));
    button.disabled = offer.soldOut;
    button.textContent = offer.soldOut ? SOLD_OUT_LABEL : ADD_TO_CART_LABEL;
  };

  skuField.addEventListener('change', showVariant);
  return () => {
    skuField.removeEventListener('change', showVariant);
    if (priceLine && original) priceLine.replaceWith(original);
  };
}
