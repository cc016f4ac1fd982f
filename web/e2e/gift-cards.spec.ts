//! A shopper buys a gift card for someone from the demo shop (amount, recipient and message on the gift card page, then
//! the regular checkout with the test card, under the test mode ribbon), reads its code on the confirmation once, and
//! later the recipient, in a browser of her own, pays part of a mug with that code; the order page opens only in the
//! browser that bought it; the balance page reads the spent card by its last 4 and answers any other code alike; the
//! gift card page, its send date, its refusals, the balance page and the order pages pass axe-core.

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { PAYING_CARD, enterCheckout, fillCheckout } from './support/checkout';

const GIFT_CARD = '/shop/gift-card';
const MUG = '/shop/sea-glass-mug';

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

/** Fills the card fields with the test card that pays. */
async function fillCard(page: Page): Promise<void> {
  await page.getByLabel('Card number').fill(PAYING_CARD);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/40');
  await page.getByLabel('Security code').fill('123');
}

test('a gift card bought for someone pays part of a later order', async ({ page, browser }) => {
  // Two shoppers, two checkouts and seven accessibility checks: a long journey.
  test.slow();
  await page.goto(GIFT_CARD);
  await page.getByRole('link', { name: 'Send as a gift, with a message' }).click();
  await expect(page).toHaveURL(/\/checkout\/giftcard\?websiteId=.+&giftCardProductId=.+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gift Card');
  await expectNoViolations(page, 'gift card page');

  // Without an amount the page says what is missing, beside the amounts.
  await page.getByLabel('Recipient’s email (optional)').fill('bea@example');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.locator('#checkout-sku-error')).toHaveText('Choose an amount.');
  await expect(page.locator('#checkout-recipientEmail-error')).toContainText('Email is not valid.');
  await expectNoViolations(page, 'gift card page with errors');

  await page.getByRole('radio', { name: '€25.00' }).check();
  await page.getByLabel('Recipient’s name (optional)').fill('Bea');
  await page.getByLabel('Recipient’s email (optional)').fill('bea@example.com');
  await page.getByLabel('Message (optional)').fill('Happy birthday, Bea!\nChoose something lovely.');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();

  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.locator('.checkout-summary')).toContainText('For Bea (bea@example.com)');
  // A gift card does not buy gift cards, so the field is not offered for this cart.
  await expect(page.getByLabel('Gift card code (optional)')).toHaveCount(0);
  // The demo takes test payments, and checkout says so in words.
  await expect(page.getByRole('note')).toHaveText('Test mode: payments here are simulated and no money is taken.');
  await expectNoViolations(page, 'checkout page in test mode');
  await page.getByLabel('Email').fill('giver@example.com');
  await fillCard(page);
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  const card = page.locator('.gift-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('For Bea (bea@example.com)');
  await expect(card).toContainText('Balance: €25.00');
  await expect(card.locator('.gift-card__message')).toContainText('Happy birthday, Bea!');
  const code = (await card.locator('.gift-card__code').innerText()).trim();
  expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  await expectNoViolations(page, 'order confirmed page with a gift card');
  const giverOrder = page.url().replace(/\/confirmed$/, '');

  // The code is shown once: the confirmation seen again shows its last 4 only.
  await page.reload();
  await expect(page.locator('.gift-card__code')).toHaveText(`ending ${code.slice(-4)}`);
  await expect(page.locator('.order-gift-cards')).toContainText('shown in full only once');

  // Later, Bea buys a small sand mug (€28.00 and €5.00 shipping) with the card, typed loosely, in her own browser,
  // where the giver's order page does not open.
  const origin = new URL(page.url()).origin;
  const giver = page;
  const beaContext = await browser.newContext();
  page = await beaContext.newPage();
  const stranger = await page.goto(`${origin}${new URL(giverOrder).pathname}`);
  expect(stranger?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order not found');
  await expect(page.locator('main')).not.toContainText('giver@example.com');
  await expect(page.locator('main')).not.toContainText(code.slice(-4));
  await expectNoViolations(page, 'order page of another browser');
  await page.goto(`${origin}${MUG}`);
  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-S-SAND');
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await enterCheckout(page);
  await expect(page).toHaveURL(/\/checkout$/);
  await fillCheckout(page, {
    email: 'bea@example.com',
    name: 'Bea Friend',
    address: '3 Rua Nova',
    city: 'Lisbon',
    postalCode: '1100-321',
    country: 'PT',
  });
  await page.getByLabel('Gift card code (optional)').fill('0000 0000 0000 0000');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('#checkout-giftCardCode-error')).toHaveText(
    'No gift card has this code. Check it and try again.',
  );
  await expectNoViolations(page, 'checkout page with a refused gift card');

  await page.getByLabel('Gift card code (optional)').fill(code.toLowerCase().replaceAll('-', ' '));
  await fillCard(page);
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  const payment = page.locator('.order-page__payment');
  await expect(payment).toContainText(`Gift card ending ${code.slice(-4)}`);
  await expect(payment).toContainText('−€25.00');
  await expect(payment).toContainText('Rest, charged to your card');
  await expect(payment).toContainText('€8.00');
  await expect(page.locator('.order-total')).toHaveText('Total: €33.00');
  await expectNoViolations(page, 'order confirmed page paid partly by gift card');

  await beaContext.close();

  // The giver's order page, in the giver's browser, shows the card spent, by its last 4.
  await giver.goto(giverOrder);
  await expect(giver.getByRole('heading', { level: 1 })).toHaveText('Order status');
  await expect(giver.locator('.gift-card')).toContainText(`ending ${code.slice(-4)}`);
  await expect(giver.locator('.gift-card')).not.toContainText(code);
  await expect(giver.locator('.gift-card')).toContainText('Balance: €0.00');
  await expectNoViolations(giver, 'order status page with a spent gift card');

  // The balance page answers the card's balance by its last 4, and the same for any code no card has.
  await giver.goto('/gift-cards/balance');
  await expect(giver.getByRole('heading', { level: 1 })).toHaveText('Gift card balance');
  await expectNoViolations(giver, 'gift card balance page');
  await giver.getByLabel('Gift card code').fill(code.toLowerCase());
  await giver.getByRole('button', { name: 'Check the balance' }).click();
  await expect(giver.getByRole('status')).toContainText(
    `The gift card ending ${code.slice(-4)} has €0.00 left to spend, of €25.00.`,
  );
  await expect(giver.locator('main')).not.toContainText(code);
  await expect(giver.getByLabel('Gift card code')).toHaveValue('');
  await expectNoViolations(giver, 'gift card balance page with an answer');
  for (const guess of ['0000-0000-0000-0000', 'not a code']) {
    await giver.getByLabel('Gift card code').fill(guess);
    await giver.getByRole('button', { name: 'Check the balance' }).click();
    await expect(giver.getByRole('status')).toContainText(
      'We could not find a gift card with this code. Check the code and try again.',
    );
  }
});

test('the gift card page offers a send date and wants the recipient’s email with it', async ({ page }) => {
  await page.goto(GIFT_CARD);
  await page.getByRole('link', { name: 'Send as a gift, with a message' }).click();
  await page.getByRole('radio', { name: '€25.00' }).check();
  await page.getByLabel('Send on (optional)').fill('2099-01-01');
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.locator('#checkout-sendOn-error')).toHaveText(
    'Add the recipient’s email so we can send the card on this date.',
  );
  await expect(page.getByLabel('Send on (optional)')).toHaveValue('2099-01-01');
  await expectNoViolations(page, 'gift card page with a send date refused');
});

test('a gift card link naming no gift card gets a page that says so', async ({ page }) => {
  const incomplete = await page.goto('/checkout/giftcard');
  expect(incomplete?.status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText(
    'This gift card link is incomplete. Open the gift card from the shop to choose it again.',
  );
  const unknown = await page.goto('/checkout/giftcard?websiteId=nope&giftCardProductId=nope');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole('alert')).toHaveText('This gift card is not available. It may no longer be sold here.');
  await expectNoViolations(page, 'gift card page for a bad link');
});
