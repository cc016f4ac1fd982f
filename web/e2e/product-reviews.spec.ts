//! Product pages and reviews in a real browser: choosing a variant shows its price, a failed add says the spec's
//! text, the page carries JSON-LD Product data; a buyer's review request takes a star rating, thanks them, and the
//! review shows on the product page with its average. axe-core finds no violations on these pages.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { buyVariant, reviewRequestPath } from './support/purchase';

const MUG = '/shop/sea-glass-mug';

test('choosing a variant shows its price, and a failed add says why', async ({ page }) => {
  await page.goto(MUG);
  const form = page.locator('form.add-to-cart').first();
  await expect(form).toHaveAttribute('data-island-state', 'mounted');
  const price = page.locator('.product-page__details .price');
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-L-SEA');
  await expect(price.locator('.price__current')).toHaveText(/32\.00/);
  await expect(price).not.toContainText('from');

  const violations = await axeViolations(page);
  expect(violations, formatViolations('product page', violations)).toEqual([]);

  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(data['@type']).toBe('Product');
  expect(data.offers).toHaveLength(4);
  expect(data.offers[3].availability).toBe('https://schema.org/OutOfStock');

  await page.route('**/api/commerce/cart/items**', (route) => route.fulfill({ status: 503, body: '' }));
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.locator('.add-to-cart__status')).toHaveText('Unable to add item');
  await page.route('**/api/commerce/cart/items**', (route) => route.abort('internetdisconnected'));
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.locator('.add-to-cart__status')).toHaveText('Please check your internet connection');
});

test('a buyer reviews a purchase and the review shows on the product page', async ({ page }) => {
  const orderId = await buyVariant(page, MUG, 'TLZ-MUG-S-SEA', {
    email: 'buyer@example.com',
    name: 'Ada Buyer',
    address: '1 Main St',
    city: 'Springfield',
    region: 'MA',
    postalCode: '12345',
    country: 'US',
  });
  await page.goto(await reviewRequestPath(page, orderId, 'Ada'));
  await expect(page.locator('body')).toHaveAttribute('data-page-type', '209');
  await expect(page.locator('#reviews-root')).toHaveAttribute('data-island-state', 'mounted');
  const violations = await axeViolations(page);
  expect(violations, formatViolations('reviews request page', violations)).toEqual([]);

  const review = page.locator('form.review-form').first();
  await review.getByRole('button', { name: 'Submit review' }).click();
  await expect(review.locator('.review-form__message')).toHaveText('Please select a star rating');
  await review.getByLabel('4 stars').check();
  await review.getByLabel('Title (optional)').fill('Lovely glaze');
  await review.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByRole('status')).toHaveText('Thanks for your feedback');
  await expect(page.locator('.reviews-page__empty')).toHaveText('There are no products to review');

  await page.goto(MUG);
  await expect(page.locator('.product-reviews__average')).toContainText('4.0 out of 5');
  await expect(page.locator('.review__title')).toHaveText('Lovely glaze');
  // The review was written seconds ago (001 s9): said relatively, with the date as its title.
  const written = page.locator('.review__meta time[data-relative]');
  await expect(written).toHaveText(/^(just now|\d+ seconds ago)$/);
  await expect(written).toHaveAttribute('title', /^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  const productViolations = await axeViolations(page);
  expect(productViolations, formatViolations('product page with reviews', productViolations)).toEqual([]);
});
