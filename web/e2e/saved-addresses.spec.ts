//! Saved addresses in real Chromium: a signed-in shopper buys the demo's Sea Glass Mug (it
//! ships), ticks "Save this address for next time", and finds the next checkout filled in with
//! the box ticked; the account page shows the address and removes it, after which checkout is
//! empty again. axe finds nothing on the checkout and account pages.
//!
//! Signing up needs the mailed confirmation link, so this file starts its own server with mail
//! configured, two ports up, with its own fresh database.

import { expect, type Page, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { enterCheckout, fillCheckout } from './support/checkout';
import { type MailServer, startMailServer } from './support/mail-server';
import { createAccount, signIn } from './support/site-users';

const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 2;
const base = `http://127.0.0.1:${port}`;
const mails: string[] = [];
let server: MailServer | undefined;

const EMAIL = 'returning@example.com';
const PASSWORD = 'a long stoneware password';
const MUG = '/shop/sea-glass-mug';

test.beforeAll(async () => {
  server = await startMailServer('saved-addresses', port, mails, ['--test-payments']);
});

test.afterAll(async () => {
  await server?.stop();
});

async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

/** Puts one small mug in the cart and enters checkout. */
async function checkoutWithMug(page: Page): Promise<void> {
  await page.goto(`${base}${MUG}`);
  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-S-SEA');
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await enterCheckout(page);
  await expect(page).toHaveURL(`${base}/checkout`);
}

test('a ticked address fills the next checkout, shows on the account page and can be removed', async ({ page }) => {
  await createAccount(page, base, mails, EMAIL, PASSWORD);
  await signIn(page, base, EMAIL, PASSWORD, MUG);

  await checkoutWithMug(page);
  const save = page.getByRole('checkbox', { name: 'Save this address for next time' });
  await expect(save).not.toBeChecked();
  await fillCheckout(page, {
    email: EMAIL,
    name: 'Rita Returning',
    address: '12 Rua das Flores',
    city: 'Boston',
    region: 'MA',
    postalCode: '02139',
    country: 'US',
  });
  await save.check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');

  // The next checkout is filled in from the saved address, with the box ticked.
  await checkoutWithMug(page);
  await expect(page.getByLabel('Full name')).toHaveValue('Rita Returning');
  await expect(page.getByLabel('Address', { exact: true })).toHaveValue('12 Rua das Flores');
  await expect(page.getByLabel('City')).toHaveValue('Boston');
  await expect(page.getByLabel('Zip or postal code')).toHaveValue('02139');
  await expect(page.getByLabel('Country code')).toHaveValue('US');
  await expect(save).toBeChecked();
  await expectAccessible(page, 'prefilled checkout');

  await page.goto(`${base}/account`);
  const saved = page.locator('section', { has: page.getByRole('heading', { name: 'Saved address' }) });
  await expect(saved.locator('address')).toContainText('Rita Returning');
  await expect(saved.locator('address')).toContainText('12 Rua das Flores');
  await expectAccessible(page, 'account page with a saved address');
  await saved.getByRole('button', { name: 'Remove saved address' }).click();
  await expect(saved).toContainText('No shipping address is saved.');
  await expect(saved.locator('address')).toHaveCount(0);
  await expectAccessible(page, 'account page without a saved address');

  // Forgotten: the next checkout starts empty, the box unticked.
  await checkoutWithMug(page);
  await expect(page.getByLabel('Full name')).toHaveValue('');
  await expect(save).not.toBeChecked();
});
