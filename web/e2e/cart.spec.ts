//! A shopper buys from the demo shop: choose a variant, add to the cart (the header's indicator follows), change the
//! quantity in the cart app, apply a coupon, check out with the test gateway and see the order confirmed; a sold-out
//! product cannot be added; the product, cart and checkout pages pass axe-core.

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { enterCheckout, fillCheckout } from './support/checkout';

const MUG = '/shop/sea-glass-mug';
const SOLD_OUT = '/shop/moon-vase';

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

test('a shopper chooses a variant, adds it to the cart, changes it in the cart app and checks out once', async ({ page }) => {
  const product = await page.goto(MUG);
  expect(product?.status()).toBe(200);
  await expectNoViolations(page, 'product page');
  const indicator = page.locator('[data-cart-indicator]');
  await expect(indicator).toHaveAttribute('data-initialized', '');
  await expect(indicator).toHaveAttribute('aria-label', '0 items in cart');

  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-L-SEA');
  await form.locator('input[name="quantity"]').fill('1');
  await form.getByRole('button', { name: 'Add to cart' }).click();
  // The shopper stays on the product page; the header follows.
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await expect(page).toHaveURL(new RegExp(`${MUG}$`));
  await expect(indicator).toHaveAttribute('aria-label', 'one item');
  await expect(indicator.locator('[data-cart-subtotal]')).toHaveText('€32.00');

  await form.getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  const cart = page.locator('.sqs-cart-container #sqs-cart-root');
  // The cart app has taken over once its forms no longer post anywhere.
  await expect(cart.locator('form.cart-quantity:not([action])')).toHaveCount(1);
  await cart.getByLabel('Quantity of Sea Glass Mug').fill('2');
  await cart.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(cart.locator('.cart-totals')).toContainText('€64.00');
  await expect(indicator).toHaveAttribute('aria-label', '2 items in cart');

  await cart.getByLabel('Coupon code').fill('NOPE');
  await cart.getByRole('button', { name: 'Apply coupon' }).click();
  await expect(cart.locator('#cart-coupon-error')).toHaveText('This coupon code is not valid.');
  await cart.getByLabel('Coupon code').fill('WELCOME10');
  await cart.getByRole('button', { name: 'Apply coupon' }).click();
  // 10 % of €64.00 off; shipping is chosen at checkout.
  await expect(cart.locator('.cart-totals')).toContainText('€6.40');
  await expect(cart.locator('.cart-totals')).toContainText('€57.60');
  await expectNoViolations(page, 'cart page');

  await cart.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.locator('.checkout-hold__time')).toHaveText(/^(10:00|9:\d\d)$/);
  await expectNoViolations(page, 'checkout page');
  await fillCheckout(page, {
    email: 'shopper@example.com',
    name: 'Ada Shopper',
    address: '1 Main St',
    city: 'Boston',
    region: 'MA',
    postalCode: '0213',
    country: 'US',
  });
  await page.getByRole('button', { name: 'Place order' }).click();
  // A zip that is not five digits is refused with the forms' message, and nothing is ordered.
  await expect(page.getByRole('alert')).toHaveText('Update the missing or invalid information above');
  await expect(page.locator('#checkout-postalCode-error')).toHaveText('Zip code must be exactly 5 digits.');
  await expectNoViolations(page, 'checkout page with errors');
  await page.getByLabel('Zip or postal code').fill('02139');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  await expect(page.locator('.order-total')).toHaveText('Total: €62.60');
  await expectNoViolations(page, 'order confirmed page');

  // The cart was bought: checkout finds nothing to buy again.
  const again = await page.goto('/checkout');
  expect(again?.status()).toBe(200);
  await expect(page.getByRole('alert')).toHaveText('You have nothing in your shopping cart');
});

test('a sold-out product cannot be added', async ({ page }) => {
  await page.goto(SOLD_OUT);
  const form = page.locator('form.add-to-cart').first();
  await expect(form.getByRole('button', { name: 'Sold out' })).toBeDisabled();
  // Posting the form anyway (as a script could) is refused with the cart text.
  const itemId = await form.locator('input[name="itemId"]').inputValue();
  const answer = await page.request.post('/cart', {
    form: { itemId, sku: 'TLZ-VASE-S', quantity: '1' },
    // A script's request names no origin by itself; the server refuses what is not same-origin.
    headers: { Origin: new URL(page.url()).origin },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(409);
  expect(await answer.text()).toContain('Unable to add item');
});

test('without a cart, checkout entry shows the session alert first', async ({ page }) => {
  await enterCheckout(page);
  await expect(page.getByRole('alert')).toHaveText(
    'Either your session has expired or you do not have cookies enabled. We cannot continue to checkout.',
  );
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a shopper adds, changes the quantity, applies a coupon and checks out with forms alone', async ({ page }) => {
    await page.goto(MUG);
    const form = page.locator('form.add-to-cart').first();
    await form.locator('select[name="sku"]').selectOption('TLZ-MUG-S-SEA');
    await form.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    const cart = page.locator('.sqs-cart-container #sqs-cart-root');
    await expect(cart).toContainText('Sea Glass Mug');

    await cart.getByLabel('Quantity of Sea Glass Mug').fill('3');
    await cart.getByRole('button', { name: 'Update', exact: true }).click();
    await expect(cart.locator('.cart-totals')).toContainText('€84.00');
    await cart.getByLabel('Coupon code').fill('WELCOME10');
    await cart.getByRole('button', { name: 'Apply coupon' }).click();
    await expect(cart.locator('.cart-totals')).toContainText('€75.60');

    await cart.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await fillCheckout(page, {
      email: 'nojs@example.com',
      name: 'Grace Shopper',
      address: '2 Harbour Row',
      city: 'Bristol',
      postalCode: 'BS1 4RN',
      country: 'GB',
    });
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
    // 3 x €28.00 = €84.00, less 10 %, plus €5.00 shipping.
    await expect(page.locator('.order-total')).toHaveText('Total: €80.60');
  });
});
