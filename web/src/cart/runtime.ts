//! Starts the commerce features every page may have: the header's cart indicator (filled from the
//! cart API on load and kept in step with every cart call) and add to cart without leaving the
//! page. Part of the common script, plain TypeScript, no React.

import type { RequestClient } from '../runtime/request/client';
import { enhanceAddToCart } from './add-to-cart';
import { createCartApi } from './api';
import { followCart } from './events';

export function startCommerce(win: Window & typeof globalThis): void {
  const requests = (win as unknown as { Vitrine?: { requests?: RequestClient } }).Vitrine?.requests;
  if (!requests) return;
  const doc = win.document;
  followCart(doc, win);
  const api = createCartApi(requests, win);
  if (doc.querySelector('[data-cart-indicator]')) void api.load();
  enhanceAddToCart(doc, api);
}
