//! Product forms in the demo shop: the jug asks for gift options (a required gift wrap and a
//! message), the mug for an optional name to engrave. A shopper fills the form on the product
//! page, sees the answers in the cart, edits them in the cart app, and reads 'Unable to update
//! form' and 'Unable to open form' when those calls fail; without JavaScript the cart's Edit link
//! leads to a page of its own. The product page and the edit page pass axe-core.

import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const JUG = '/shop/moss-pouring-jug';
const MUG = '/shop/sea-glass-mug';
const FORM_CALL = '**/api/commerce/cart/items/*/form*';

/** The answer a cart line shows to the question `title`. */
function answer(cart: Locator, title: string): Locator {
  return cart.locator('.cart-line__answer').filter({ has: cart.page().locator('dt', { hasText: title }) }).locator('dd');
}

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

test('a shopper fills the gift options, sees them in the cart and edits them there', async ({ page }) => {
  await page.goto(JUG);
  await expectNoViolations(page, 'product page with a form');
  const form = page.locator('form.add-to-cart').first();
  const options = form.getByRole('group', { name: 'Gift options' });
  await expect(options).toBeVisible();

  // The gift wrap is required: the server's message stands at the field.
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toHaveText('Update the missing or invalid information above');
  const wrap = options.getByRole('group', { name: 'Gift wrap' });
  await expect(wrap.locator('.field__error')).toHaveText('Gift wrap is required.');
  await expect(wrap.getByRole('radio').first()).toHaveAttribute('aria-invalid', 'true');
  await expectNoViolations(page, 'product page with a refused answer');

  await wrap.getByLabel('Wrapped in linen').check();
  await options.getByLabel('Gift message').fill('Happy birthday, Ada');
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await expect(wrap.locator('.field__error')).toHaveCount(0);

  await form.getByRole('link', { name: 'View cart' }).click();
  const cart = page.locator('#sqs-cart-root');
  await expect(cart.locator('form.cart-quantity:not([action])')).toHaveCount(1);
  await expect(answer(cart, 'Gift wrap')).toHaveText('Wrapped in linen');
  await expect(answer(cart, 'Gift message')).toHaveText('Happy birthday, Ada');

  await cart.getByRole('button', { name: 'Edit details of Moss Pouring Jug' }).click();
  const editor = cart.locator('form.cart-line-form');
  const message = editor.getByLabel('Gift message');
  await expect(message).toHaveValue('Happy birthday, Ada');
  await expect(editor.getByLabel('Wrapped in linen')).toBeChecked();
  await expectNoViolations(page, 'cart with the answers editor open');
  await message.fill('Happy birthday, Bo');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(cart.locator('form.cart-line-form')).toHaveCount(0);
  await expect(answer(cart, 'Gift message')).toHaveText('Happy birthday, Bo');
  await expect(cart.getByRole('button', { name: 'Edit details of Moss Pouring Jug' })).toBeFocused();

  // Saving fails on the server: the editor stays open with what was typed, and says so.
  await page.route(FORM_CALL, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Unable to update form' }) })
      : route.continue(),
  );
  await cart.getByRole('button', { name: 'Edit details of Moss Pouring Jug' }).click();
  await editor.getByLabel('Gift message').fill('Happy birthday, Cy');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByRole('alert')).toHaveText('Unable to update form');
  await expect(editor.getByLabel('Gift message')).toHaveValue('Happy birthday, Cy');
  await expect(answer(cart, 'Gift message')).toHaveText('Happy birthday, Bo');
  await page.unroute(FORM_CALL);
  await editor.getByRole('button', { name: 'Cancel' }).click();

  // The form cannot be loaded: the editor says so.
  await page.route(FORM_CALL, (route) => route.abort('internetdisconnected'));
  await cart.getByRole('button', { name: 'Edit details of Moss Pouring Jug' }).click();
  await expect(cart.locator('.cart-line-form').getByRole('alert')).toHaveText('Unable to open form');
  await page.unroute(FORM_CALL);
});

test('the same mug engraved with two names is two lines of the cart', async ({ page }) => {
  await page.goto(MUG);
  const form = page.locator('form.add-to-cart').first();
  const indicator = page.locator('[data-cart-indicator]');
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-S-SEA');
  for (const [name, items] of [
    ['ADA', 'one item'],
    ['BO', '2 items in cart'],
  ] as const) {
    await form.getByLabel('Name to engrave').fill(name);
    await form.getByRole('button', { name: 'Add to cart' }).click();
    await expect(indicator).toHaveAttribute('aria-label', items);
  }
  await page.goto('/cart');
  const cart = page.locator('#sqs-cart-root');
  await expect(cart.locator('form.cart-quantity:not([action])')).toHaveCount(2);
  await expect(answer(cart, 'Name to engrave')).toHaveText(['ADA', 'BO']);
  await cart.getByRole('button', { name: 'Remove Sea Glass Mug' }).first().click();
  await expect(answer(cart, 'Name to engrave')).toHaveText(['BO']);
});

test('the page that edits a line\'s answers passes axe-core', async ({ page }) => {
  await page.goto(JUG);
  const form = page.locator('form.add-to-cart').first();
  await form.getByLabel('No gift wrap').check();
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  // The page the cart's Edit link leads to without JavaScript (axe needs scripts to run).
  const cart = (await (await page.request.get('/api/commerce/cart')).json()) as { cart: { entries: { lineId: string }[] } };
  const line = cart.cart.entries[0]!.lineId;
  const edit = await page.goto(`/cart/form?line=${encodeURIComponent(line)}`);
  expect(edit?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gift options for Moss Pouring Jug');
  await expect(page.getByLabel('No gift wrap')).toBeChecked();
  await expectNoViolations(page, 'edit page');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the Edit link opens a page with the form, which saves back to the cart', async ({ page }) => {
    await page.goto(MUG);
    const form = page.locator('form.add-to-cart').first();
    await form.locator('select[name="sku"]').selectOption('TLZ-MUG-L-SEA');
    await form.getByLabel('Name to engrave').fill('ADA');
    await form.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(answer(page.locator('.cart-lines'), 'Name to engrave')).toHaveText('ADA');

    await page.getByRole('link', { name: 'Edit details of Sea Glass Mug' }).click();
    await expect(page).toHaveURL(/\/cart\/form\?line=/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Engraving for Sea Glass Mug');
    await expect(page.getByLabel('Name to engrave')).toHaveValue('ADA');

    await page.getByLabel('Name to engrave').fill('BO');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(answer(page.locator('.cart-lines'), 'Name to engrave')).toHaveText('BO');
  });
});
