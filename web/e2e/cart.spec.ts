//! A shopper buys from the demo shop: choose a variant, add to the cart, apply a coupon, check out and see the order
//! confirmed; a sold-out product cannot be added; the cart and checkout pages pass axe-core.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const MUG = '/shop/sea-glass-mug';
const SOLD_OUT = '/shop/moon-vase';

test('a shopper chooses a variant, adds it to the cart and checks out once', async ({ page }) => {
  const product = await page.goto(MUG);
  expect(product?.status()).toBe(200);
  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-L-SEA');
  await form.locator('input[name="quantity"]').fill('2');
  await form.getByRole('button', { name: 'Add to cart' }).click();

  await expect(page).toHaveURL(/\/cart$/);
  const cart = page.locator('#sqs-cart-root');
  await expect(cart).toContainText('Sea Glass Mug');
  await expect(cart).toContainText('$64.00');

  await page.getByLabel('Coupon code').fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply coupon' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  // 10 % of $64.00 off; shipping is chosen at checkout.
  await expect(cart).toContainText('$6.40');
  await expect(cart).toContainText('$57.60');
  const cartViolations = await axeViolations(page);
  expect(cartViolations, formatViolations('cart page', cartViolations)).toEqual([]);

  await page.goto('/commerce/goto-checkout');
  await expect(page).toHaveURL(/\/checkout$/);
  const checkoutViolations = await axeViolations(page);
  expect(checkoutViolations, formatViolations('checkout page', checkoutViolations)).toEqual([]);
  await page.getByLabel('Email').fill('shopper@example.com');
  await page.getByLabel('Shipping').selectOption('standard');
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  await expect(page.locator('.order-total')).toHaveText('Total: $62.60');

  // The cart was bought: going back to checkout finds nothing to buy again.
  await page.goto('/cart');
  await expect(page.locator('#sqs-cart-root')).toContainText('Sea Glass Mug');
  const again = await page.goto('/checkout');
  expect(again?.status()).toBe(200);
});

test('a sold-out product cannot be added', async ({ page }) => {
  await page.goto(SOLD_OUT);
  const button = page.locator('form.add-to-cart').first().getByRole('button', { name: 'Sold out' });
  await expect(button).toBeDisabled();
});

test('without a cart, checkout entry shows the session alert first', async ({ page }) => {
  await page.goto('/commerce/goto-checkout');
  await expect(page.getByRole('alert')).toHaveText(
    'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
  );
});
