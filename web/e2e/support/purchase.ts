//! Buying one variant of a product through the real cart and checkout, and asking for the buyer's review link with
//! the owner's token, as the browser tests of reviews and of the owner's tables both need.

import { expect, type Page } from '@playwright/test';
import { OWNER_TOKEN } from '../../playwright.config';
import { enterCheckout, fillCheckout, type CheckoutDetails } from './checkout';

/** Adds `sku` from the product page at `productPath` to the cart and places the order; the order's id. */
export async function buyVariant(page: Page, productPath: string, sku: string, details: CheckoutDetails): Promise<string> {
  await page.goto(productPath);
  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption(sku);
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await enterCheckout(page);
  await expect(page).toHaveURL(/\/checkout$/);
  await fillCheckout(page, details);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  // The confirmation lives at /commerce/orders/{id}/confirmed.
  const segments = new URL(page.url()).pathname.split('/');
  return segments[segments.indexOf('orders') + 1] ?? '';
}

/** Asks, as the owner, for the review request of `orderId`; the path and query of the buyer's link. */
export async function reviewRequestPath(page: Page, orderId: string, authorName: string): Promise<string> {
  // Pages carry no crumb; the endpoint gives this browser one if its islands have not yet.
  await page.request.get('/api/crumb');
  const crumb = (await page.context().cookies()).find((cookie) => cookie.name === 'crumb' || cookie.name === '__Host-crumb')?.value ?? '';
  const made = await page.request.post(`/api/commerce/orders/${orderId}/review-request`, {
    headers: { Authorization: `Bearer ${OWNER_TOKEN}`, 'X-CSRF-Token': crumb },
    data: { authorName },
  });
  expect(made.status()).toBe(201);
  const link = new URL((await made.json()).url as string);
  return link.pathname + link.search;
}
