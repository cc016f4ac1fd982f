//! Card payments through Stripe's own card fields in real Chromium: a `vitrine serve` of its own
//! with Stripe configured against the local fake of Stripe (`vitrine-stripe-fake`, built with
//! `cargo build -p vitrine-services --features test-support --bin vitrine-stripe-fake`), whose
//! stand-in of Stripe.js the checkout page loads in place of Stripe's (the real script cannot
//! load here). A card without verification pays at once; a declined card says why and another
//! pays the same order; a 3-D Secure card goes to the fake's bank page and back, approved or
//! failed; the card number is never sent to the shop; without
//! the script or without JavaScript the page says card payment is unavailable and the cart
//! stays. A donor gives the same way on the donation page, through 3-D Secure, and lands on the
//! contribution's page, which says so when the bank refused; a donor whose card is declined
//! gives with another card on the same contribution, at the amount chosen after the page loaded. axe checks the checkout, the
//! donation page, the bank's page, and the pages after them.
//!
//! The two processes are started here rather than as Playwright web servers, so the other
//! specs do not wait for them: the shop two ports above the others' extra servers, the fake on
//! the next port.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { enterCheckout } from './support/checkout';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
const fakeBinary = join(dirname(binary), 'vitrine-stripe-fake');
const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 3;
const fakePort = port + 1;
const base = `http://127.0.0.1:${port}`;
const fakeBase = `http://127.0.0.1:${fakePort}`;
const dataDir = join(tmpdir(), `vitrine-e2e-stripe-${port}`);

/** The fake's keys (`stripe_fake::FAKE_SECRET_KEY`, `FAKE_PUBLISHABLE_KEY`). */
const SECRET_KEY = 'sk_test_vitrine_fake_stripe';
const PUBLISHABLE_KEY = 'pk_test_vitrine_fake_stripe';

/** Stripe's test cards, as the fake knows them. */
const PAYS = '4242 4242 4242 4242';
const ASKS_FOR_3DS = '4000 0027 6000 3184';
/** Declined at once (Stripe's generic decline). */
const DECLINED = '4000 0000 0000 0002';
/** Asks for 3-D Secure when it is set up for renewals, and never again off session. */
const VERIFIED_ONCE = '4000 0025 0000 3155';

/** What the shop says of Stripe's generic decline (`DECLINED_MESSAGE`). */
const DECLINED_TEXT = 'Your card was declined. Please use another card.';

const NEEDS_JAVASCRIPT =
  'Card payment needs JavaScript, which is off or could not load the payment form. Your cart is kept: turn JavaScript on or try another browser, then pay again.';
const DONATION_NEEDS_JAVASCRIPT =
  'Card payment needs JavaScript, which is off or could not load the payment form. Nothing was charged and what you typed is kept: turn JavaScript on or try another browser, then donate again.';

test.describe.configure({ mode: 'serial' });
const processes: ChildProcess[] = [];

async function waitFor(url: string, what: string, child: ChildProcess): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`${what} exited with ${exited} before answering on ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${what} did not answer on ${url}`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
}

test.beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env, RUST_LOG: 'warn' };
  const fake = spawn(fakeBinary, [String(fakePort)], { stdio: ['ignore', 'ignore', 'inherit'], env });
  processes.push(fake);
  await waitFor(`${fakeBase}/v3/`, 'the Stripe fake', fake);
  const vitrine = spawn(
    binary,
    [
      'serve',
      '--plain-http',
      '--addr',
      `127.0.0.1:${port}`,
      '--data-dir',
      dataDir,
      '--request-limits',
      'address=1000000,visitor=1000000',
      '--attempt-limits',
      'address=1000000,visitor=1000000',
      '--stripe-api-base',
      fakeBase,
      '--stripe-js-url',
      `${fakeBase}/v3/`,
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...env, VITRINE_STRIPE_SECRET_KEY: SECRET_KEY, VITRINE_STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY },
    },
  );
  processes.push(vitrine);
  await waitFor(`${base}/healthz`, 'the Stripe shop', vitrine);
});

test.afterAll(() => {
  for (const child of processes) child.kill('SIGTERM');
});

/** A mug in a new cart, at checkout, with the address filled; the card fields mounted. */
async function atCheckout(page: Page): Promise<void> {
  await page.goto(`${base}/shop/sea-glass-mug`);
  const form = page.locator('form.add-to-cart').first();
  await form.locator('select[name="sku"]').selectOption('TLZ-MUG-L-SEA');
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await Promise.all([
    page.waitForNavigation(),
    page.evaluate(() => {
      const entry = document.createElement('form');
      entry.method = 'post';
      entry.action = '/commerce/goto-checkout';
      document.body.append(entry);
      entry.submit();
    }),
  ]);
  await expect(page).toHaveURL(`${base}/checkout`);
  await fillAddress(page, 'shopper@example.com', 'Ada Shopper');
}

/** Contact, a Lisbon address and the standard shipping option. */
async function fillAddress(page: Page, email: string, name: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Address', { exact: true }).fill('Rua das Flores 12');
  await page.getByLabel('City').fill('Lisboa');
  await page.getByLabel('Zip or postal code').fill('1200-195');
  await page.getByLabel('Country code').fill('PT');
  await page.getByRole('radio', { name: /Standard/ }).first().check();
}

async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date (MM / YY)').fill('12 / 40');
  await page.getByLabel('Security code').fill('123');
}

/** Fails the test if any request to the shop carries the card number. */
function watchForCard(page: Page, number: string): string[] {
  const leaks: string[] = [];
  const digits = number.replace(/\s/g, '');
  page.on('request', (request) => {
    if (!request.url().startsWith(base)) return;
    const sent = `${request.url()} ${request.postData() ?? ''}`;
    if (sent.includes(digits) || sent.includes(encodeURIComponent(number)) || sent.includes(number.replace(/ /g, '+'))) {
      leaks.push(request.url());
    }
  });
  return leaks;
}

test('a card without verification pays in Stripe’s fields, and its number never reaches the shop', async ({ page }) => {
  const leaks = watchForCard(page, PAYS);
  await atCheckout(page);
  await expect(page.getByText(NEEDS_JAVASCRIPT)).toBeHidden();
  await typeCard(page, PAYS);
  await expectNoViolations(page, 'checkout with Stripe’s card fields');
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  await expectNoViolations(page, 'order confirmed after a Stripe payment');
  expect(leaks).toEqual([]);
});

test('a 3-D Secure card approved at the bank comes back to a confirmed order', async ({ page }) => {
  const leaks = watchForCard(page, ASKS_FOR_3DS);
  await atCheckout(page);
  await typeCard(page, ASKS_FOR_3DS);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
  expect(page.url().startsWith(`${fakeBase}/bank/`)).toBe(true);
  await expectNoViolations(page, 'the test bank’s verification page');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  expect(page.url().startsWith(`${base}/commerce/orders/`)).toBe(true);
  expect(leaks).toEqual([]);
});

test('a subscription pays in Stripe’s fields through 3-D Secure and comes back confirmed', async ({ page }) => {
  const leaks = watchForCard(page, VERIFIED_ONCE);
  await page.goto(`${base}/shop/studio-clay-club`);
  const form = page.locator('form.add-to-cart').first();
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await enterCheckout(page);
  await expect(page).toHaveURL(/\/checkout\/subscribe\?cartToken=[0-9a-f]{32}$/);
  await expect(page.getByText('Subscription: Every month, until cancelled')).toBeVisible();
  await fillAddress(page, 'member@example.com', 'Ada Member');
  await typeCard(page, VERIFIED_ONCE);
  await expectNoViolations(page, 'subscription checkout with Stripe’s card fields');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscription confirmed');
  expect(page.url().startsWith(`${base}/commerce/subscriptions/`)).toBe(true);
  await expectNoViolations(page, 'subscription confirmed after a Stripe payment');
  expect(leaks).toEqual([]);
});

test('a failed 3-D Secure verification says why, charges nothing and keeps the cart', async ({ page }) => {
  await atCheckout(page);
  await typeCard(page, ASKS_FOR_3DS);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
  await page.getByRole('button', { name: 'Fail verification' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payment failed');
  await expect(page.getByText('Your bank could not verify this payment, so nothing was charged. Please try again or use another card.')).toBeVisible();
  await expectNoViolations(page, 'payment failed after the bank');
  await page.getByRole('link', { name: 'Back to the cart' }).click();
  await expect(page.getByText('Sea Glass Mug').first()).toBeVisible();
});

test('a declined card says why, and another card on the same checkout pays one order', async ({ page }) => {
  const declinedOrders: string[] = [];
  page.on('request', (request) => {
    if (request.url() === `${base}/checkout/card-payment/declined`) {
      declinedOrders.push(new URLSearchParams(request.postData() ?? '').get('order') ?? '');
    }
  });
  await atCheckout(page);
  await typeCard(page, DECLINED);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.locator('#checkout-alert')).toHaveText(DECLINED_TEXT);
  await expect(page).toHaveURL(`${base}/checkout`);
  await expectNoViolations(page, 'checkout after a declined card');
  expect(declinedOrders).toHaveLength(1);
  await typeCard(page, PAYS);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order confirmed');
  // The order the declined card left waiting is the one the second card paid.
  expect(page.url()).toContain(`/commerce/orders/${declinedOrders[0]}/`);
  await expectNoViolations(page, 'order confirmed after a declined card and another');
});

test('without Stripe’s script the page says card payment is unavailable and posts nothing', async ({ page }) => {
  await page.route(`${fakeBase}/v3/`, (route) => route.abort());
  await atCheckout(page);
  await expect(page.getByText('Card payment is unavailable right now')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Place order' })).toBeDisabled();
  await expectNoViolations(page, 'checkout without Stripe’s script');
});

test('without JavaScript the page says card payment needs it, and a posted form keeps the cart', async ({ browser }) => {
  // The cart and the entry into checkout need the add-to-cart script; the checkout page itself
  // is then read without JavaScript.
  const setup = await browser.newContext();
  const page = await setup.newPage();
  await atCheckout(page);
  const cookies = await setup.cookies();
  await setup.close();
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies(cookies);
  const plain = await context.newPage();
  await plain.goto(`${base}/checkout`);
  await expect(plain.getByText(NEEDS_JAVASCRIPT)).toBeVisible();
  await expect(plain.getByLabel('Card number')).toHaveCount(0);
  await plain.getByLabel('Email').fill('shopper@example.com');
  await plain.getByRole('button', { name: 'Place order' }).click();
  await expect(plain.getByRole('alert')).toHaveText(NEEDS_JAVASCRIPT);
  await plain.goto(`${base}/cart`);
  await expect(plain.getByText('Sea Glass Mug').first()).toBeVisible();
  await context.close();
});

/** The community kiln's donation page with €25.00 picked and the donor's details typed. */
async function atDonation(page: Page): Promise<void> {
  await page.goto(`${base}/checkout/donate?donatePageId=community-kiln&amount=2500`);
  await expect(page.getByRole('radio', { name: '€25.00' })).toBeChecked();
  await page.getByLabel('Full name').fill('Ada Donor');
  await page.getByLabel('Email').fill('donor@example.com');
}

test('a donor gives through Stripe’s fields with a 3-D Secure card and is thanked', async ({ page }) => {
  const leaks = watchForCard(page, ASKS_FOR_3DS);
  await atDonation(page);
  await expect(page.getByText(DONATION_NEEDS_JAVASCRIPT)).toBeHidden();
  await typeCard(page, ASKS_FOR_3DS);
  await expectNoViolations(page, 'donation page with Stripe’s card fields');
  await page.getByRole('button', { name: 'Donate' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
  expect(page.url().startsWith(`${fakeBase}/bank/`)).toBe(true);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your contribution');
  expect(page.url()).toMatch(/\/commerce\/contributions\/contribution-[0-9a-f]{32}\/confirmed\?link=/);
  await expect(page.locator('.order-page__lead')).toHaveText(
    'Thank you, Ada Donor. Your contribution of €25.00 to Support the community kiln was received.',
  );
  await expectNoViolations(page, 'contribution confirmed after a Stripe payment');
  expect(leaks).toEqual([]);
});

test('a donation whose bank verification fails says why and leads back to try again', async ({ page }) => {
  await atDonation(page);
  await typeCard(page, ASKS_FOR_3DS);
  await page.getByRole('button', { name: 'Donate' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verify your payment');
  await page.getByRole('button', { name: 'Fail verification' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your contribution did not go through');
  await expect(page.getByText('Your bank could not verify this payment, so nothing was charged.')).toBeVisible();
  await expectNoViolations(page, 'contribution failed after the bank');
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support the community kiln');
});

test('a donor whose card is declined gives with another card and is thanked once', async ({ page }) => {
  const declined: string[] = [];
  page.on('request', (request) => {
    if (request.url() === `${base}/checkout/donate/card-payment/declined`) {
      declined.push(new URLSearchParams(request.postData() ?? '').get('contribution') ?? '');
    }
  });
  await atDonation(page);
  // Another amount than the page loaded with: the fields are given the intent's before the
  // stand-in of Stripe.js confirms, which refuses one of another amount.
  await page.getByRole('radio', { name: '€50.00' }).check();
  await typeCard(page, DECLINED);
  await page.getByRole('button', { name: 'Donate' }).click();
  await expect(page.locator('#checkout-alert')).toHaveText(DECLINED_TEXT);
  expect(page.url().startsWith(`${base}/checkout/donate?`)).toBe(true);
  expect(declined).toHaveLength(1);
  await expectNoViolations(page, 'donation page after a declined card');
  await typeCard(page, PAYS);
  await page.getByRole('button', { name: 'Donate' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your contribution');
  // The contribution the declined card left waiting is the one the second card paid.
  expect(page.url()).toContain(`/commerce/contributions/${declined[0]}/confirmed`);
  await expect(page.locator('.order-page__lead')).toHaveText(
    'Thank you, Ada Donor. Your contribution of €50.00 to Support the community kiln was received.',
  );
  await expectNoViolations(page, 'contribution confirmed after a declined card and another');
  // One contribution, thanked once: the page loaded again is the same, with the same thanks.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your contribution');
  await expect(page.getByText('Thank you, Ada Donor.', { exact: false })).toHaveCount(1);
});

test('without JavaScript the donation page says card payment needs it and keeps what was typed', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`${base}/checkout/donate?donatePageId=community-kiln&amount=2500`);
  await expect(plain.getByText(DONATION_NEEDS_JAVASCRIPT)).toBeVisible();
  await expect(plain.getByLabel('Card number')).toHaveCount(0);
  await plain.getByLabel('Full name').fill('Ada Donor');
  await plain.getByLabel('Email').fill('donor@example.com');
  await plain.getByRole('button', { name: 'Donate' }).click();
  await expect(plain.getByRole('alert')).toHaveText(DONATION_NEEDS_JAVASCRIPT);
  await expect(plain.getByLabel('Full name')).toHaveValue('Ada Donor');
  await expect(plain.getByRole('radio', { name: '€25.00' })).toBeChecked();
  await context.close();
});
