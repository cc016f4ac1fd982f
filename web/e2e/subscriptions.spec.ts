//! A shopper's subscription after checkout, in real Chromium: a visitor signs up (the mail read from an SMTP sink),
//! confirms, signs in and subscribes to the Studio Clay Club with the test gateway; the account page lists the
//! subscription with its status, amount and next renewal, and pauses and resumes it with the session's token; the
//! signed link from the account page opens the subscription's own page, which pauses, resumes and cancels it; and the
//! account page then reads it cancelled, without buttons. Every page passes axe-core.
//!
//! These pages need a server that sends mail and charges renewals, so this file starts its own server next to the
//! shared one, two ports up, with its own fresh database (as the members' test does, which runs before or after it).

import { expect, type Page, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { enterCheckout, fillCheckout } from './support/checkout';
import { type MailServer, mailTo, mailedLink, startMailServer } from './support/mail-server';

const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 2;
const base = `http://127.0.0.1:${port}`;
const mails: string[] = [];
let server: MailServer | undefined;

const EMAIL = 'subscriber@example.com';
const PASSWORD = 'a long clay password';

test.beforeAll(async () => {
  server = await startMailServer('subscriptions', port, mails, ['--test-payments']);
});

test.afterAll(async () => {
  await server?.stop();
});

async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

test('a subscriber pauses, resumes and cancels from the account page and the signed subscription page', async ({ page }) => {
  await page.goto(`${base}/account/sign-up`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await page.goto(mailedLink(await mailTo(mails, EMAIL, 1), base, '/account/confirm'));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('status')).toHaveText('Your email address is confirmed. You can sign in now.');
  await page.goto(`${base}/account/sign-in?return=/shop/studio-clay-club`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${base}/shop/studio-clay-club`);

  const form = page.locator('form.add-to-cart').first();
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');
  await enterCheckout(page);
  await expect(page).toHaveURL(/\/checkout\/subscribe\?cartToken=[0-9a-f]{32}$/);
  await fillCheckout(page, {
    email: EMAIL,
    name: 'Sub Scriber',
    address: '1 Main St',
    city: 'Boston',
    region: 'MA',
    postalCode: '02139',
    country: 'US',
  });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Subscription confirmed');

  // The account page lists the subscription and pauses and resumes it.
  await page.goto(`${base}/account`);
  const subscriptions = page.locator('section', { has: page.getByRole('heading', { name: 'Subscriptions', level: 2 }) });
  const club = subscriptions.locator('li.account-subscription', { has: page.getByRole('heading', { name: 'Studio Clay Club' }) });
  await expect(club.locator('dd').first()).toHaveText('Active');
  await expect(club).toContainText('Every month, until cancelled');
  await expect(club.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
  await expectAccessible(page, 'account page with a subscription');

  await club.getByRole('button', { name: 'Pause Studio Clay Club' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription is paused.');
  await expect(club.locator('dd').first()).toHaveText('Paused');
  await expect(club.getByRole('button', { name: 'Pause Studio Clay Club' })).toHaveCount(0);
  await expectAccessible(page, 'account page after a pause');
  await club.getByRole('button', { name: 'Resume Studio Clay Club' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription is running again.');
  await expect(club.locator('dd').first()).toHaveText('Active');

  // The signed link opens the subscription's own page, where the same service pauses, resumes and cancels it.
  await club.getByRole('link', { name: 'Manage Studio Clay Club and its card' }).click();
  await expect(page).toHaveURL(/\/commerce\/subscriptions\/order-[0-9a-f]{32}-subscription\?sig=/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your subscription');
  await expect(page.locator('.subscription-page__standing')).toHaveText('Your subscription to Studio Clay Club is active.');
  await expectAccessible(page, 'subscription page');
  await page.getByRole('button', { name: 'Pause the subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription is paused.');
  await expect(page.locator('.subscription-page__standing')).toContainText('is paused');
  await expectAccessible(page, 'paused subscription page');
  await page.getByRole('button', { name: 'Resume the subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription is running again.');
  await page.getByRole('button', { name: 'Cancel the subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Your subscription is cancelled.');
  await expect(page.locator('.subscription-page__standing')).toContainText('is cancelled');
  await expect(page.getByRole('button', { name: /the subscription/ })).toHaveCount(0);
  await expectAccessible(page, 'cancelled subscription page');

  // Each change was mailed, and the account page reads the subscription cancelled, with nothing left to press.
  await expect.poll(() => mails.filter((mail) => mail.includes(`To: ${EMAIL}`)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
  await page.goto(`${base}/account`);
  await expect(club.locator('dd').first()).toHaveText('Cancelled');
  await expect(club.getByRole('button')).toHaveCount(0);
  await expectAccessible(page, 'account page with a cancelled subscription');
});
