//! Member areas in real Chromium, on the demo's members-only page `/studio-notes` (free area
//! `studio-friends`): an anonymous visitor sees nothing of it on the page, in search or in the
//! sitemap; a visitor signs up on the member-access page, confirms from the mailed link (caught
//! by an SMTP sink), signs in, is refused until they join, then reads the page; signs out; and
//! resets the password from a mailed link. A second visitor buys the paid area `glaze-lab`
//! through the pricing toggle and the subscription checkout (the test gateway), sees the
//! membership confirmed (page type 208) and reads the area's page `/glaze-lab`, until the
//! subscription is cancelled, which closes the area at once. axe finds nothing on any of
//! these pages.
//!
//! These pages need a server with mail configured, so this file starts its own server next to
//! the shared one, two ports up, with its own fresh database.

import { expect, type Page, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { enterCheckout } from './support/checkout';
import { type MailServer, mailTo, mailedLink, startMailServer } from './support/mail-server';
import { createAccount, signIn } from './support/site-users';
import { vitrineCliIn } from './support/vitrine-cli';

const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 2;
const base = `http://127.0.0.1:${port}`;
const mails: string[] = [];
let server: MailServer | undefined;

const EMAIL = 'member@example.com';
const PASSWORD = 'a long clay password';
/** Words only the members' page holds. */
const SECRET = 'Sea-glass celadon';

test.beforeAll(async () => {
  server = await startMailServer('members', port, mails, ['--test-payments']);
});

test.afterAll(async () => {
  await server?.stop();
});

async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

test('an anonymous visitor sees nothing gated on the page, in search or in the sitemap', async ({ page, request }) => {
  const answer = await page.goto(`${base}/studio-notes`);
  expect(answer?.status()).toBe(403);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page available only site members');
  await expect(page.locator('body')).not.toContainText(SECRET);
  await expectAccessible(page, 'access-denied page');

  await page.goto(`${base}/search?q=celadon`);
  await expect(page.locator('main')).not.toContainText(SECRET);
  const sitemap = await (await request.get(`${base}/sitemap.xml`)).text();
  expect(sitemap).not.toContain('studio-notes');
});

test('a visitor signs up, confirms, signs in, joins, reads the members page, signs out and resets the password', async ({ page }) => {
  await page.goto(`${base}/studio-notes`);
  await page.getByRole('link', { name: 'Sign in or join' }).click();
  await expect(page.locator('#sqs-member-access-page-root')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Studio friends' })).toBeVisible();
  await expectAccessible(page, 'member-access page');

  const signUp = page.locator('section', { has: page.getByRole('heading', { name: 'Create an account' }) });
  await signUp.getByLabel('Email').fill(EMAIL);
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await expectAccessible(page, 'sign-up answer');

  await page.goto(mailedLink(await mailTo(mails, EMAIL, 1), base, '/account/confirm'));
  await expectAccessible(page, 'confirmation page');
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('status')).toHaveText('Your email address is confirmed. You can sign in now.');

  await page.goto(`${base}/account/sign-in?return=/studio-notes`);
  await expectAccessible(page, 'sign-in page');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${base}/studio-notes`);
  // Signed in is not a member.
  await expect(page.getByText('Your account is not a member of the area this page belongs to.')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(SECRET);

  await page.getByRole('link', { name: 'See membership options' }).click();
  await page.getByRole('button', { name: 'Join Studio friends' }).click();
  await expect(page).toHaveURL(`${base}/studio-notes`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Studio notes');
  await expect(page.locator('main')).toContainText(SECRET);
  await expectAccessible(page, 'members page');

  await page.goto(`${base}/account`);
  await expect(page.getByText(`Signed in as ${EMAIL}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Studio notes', exact: true })).toBeVisible();
  await expectAccessible(page, 'account page');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${base}/?logout=true`);
  const after = await page.goto(`${base}/studio-notes`);
  expect(after?.status()).toBe(403);

  await page.goto(`${base}/account/forgot-password`);
  await expectAccessible(page, 'reset request page');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await page.goto(mailedLink(await mailTo(mails, EMAIL, 2), base, '/account/reset'));
  await expectAccessible(page, 'new password page');
  await page.getByLabel('Password').fill('an even longer clay password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. Please sign in.');

  await page.goto(`${base}/account/sign-in`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill('an even longer clay password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${base}/account`);
});

/** The page context's page type. */
async function pageType(page: Page): Promise<number> {
  const context = await page.locator('#vitrine-page-context').textContent();
  return (JSON.parse(context ?? '{}') as { pageType?: number }).pageType ?? 0;
}

test('a signed-in visitor buys the paid Glaze Lab, sees the membership confirmed and opens its page', async ({ page }) => {
  const email = 'lab@example.com';
  const labSecret = 'a copper red that finally held';
  await createAccount(page, base, mails, email, PASSWORD);
  await signIn(page, base, email, PASSWORD, '/glaze-lab');
  await expect(page.getByText('Your account is not a member of the area this page belongs to.')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(labSecret);

  // The pricing toggle flips the Glaze Lab's price to the yearly plan, which the visitor buys.
  await page.getByRole('link', { name: 'See membership options' }).click();
  const lab = page.locator('section.member-area', { has: page.getByRole('heading', { name: 'Glaze Lab' }) });
  const yearly = lab.getByRole('button', { name: 'Yearly' });
  await yearly.click();
  await expect(yearly).toHaveAttribute('aria-pressed', 'true');
  await lab.getByRole('link', { name: 'Subscribe yearly' }).click();
  await expect(page).toHaveURL(`${base}/shop/glaze-lab-yearly`);
  const form = page.locator('form.add-to-cart').first();
  await form.getByRole('button', { name: 'Add to cart' }).click();
  await expect(form.getByRole('status')).toContainText('Added to your cart.');

  await enterCheckout(page);
  await expect(page).toHaveURL(/\/checkout\/subscribe\?cartToken=[0-9a-f]{32}$/);
  await expect(page.locator('.checkout-plan')).toHaveText('Subscription: Every year, until cancelled');
  // The signed-in visitor's address is the order's, so the membership goes to their account.
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date (MM/YY)').fill('12/40');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Subscribe' }).click();

  await expect(page).toHaveURL(/\/commerce\/orders\/order-[0-9a-f]{32}\/membership$/);
  const orderId = new URL(page.url()).pathname.split('/')[3] ?? '';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Membership confirmed');
  expect(await pageType(page)).toBe(208);
  await expect(page.getByRole('status')).toContainText(`your account ${email} is now a member of Glaze Lab`);
  await expectAccessible(page, 'membership confirmed page');

  await page.locator('.membership-page').getByRole('link', { name: 'Glaze Lab' }).click();
  await expect(page).toHaveURL(`${base}/glaze-lab`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Glaze Lab');
  await expect(page.locator('main')).toContainText(labSecret);
  await expectAccessible(page, 'paid members page');

  // The account page lists the order, linked to its page, and the membership.
  await page.goto(`${base}/account`);
  const orders = page.locator('section', { has: page.getByRole('heading', { name: 'Orders' }) });
  await expect(orders).toContainText('Glaze Lab membership (yearly)');
  await expectAccessible(page, 'account page with an order');
  await orders.getByRole('link', { name: /^order-/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order status');

  // The subscription is cancelled (by the owner, from the command line): the area closes at
  // once, and the member-access page offers its plans again.
  vitrineCliIn(server!.dataDir, ['billing', 'cancel', `${orderId}-subscription`]);
  const closed = await page.goto(`${base}/glaze-lab`);
  expect(closed?.status()).toBe(403);
  await expect(page.getByText('Your account is not a member of the area this page belongs to.')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(labSecret);
  await page.getByRole('link', { name: 'See membership options' }).click();
  const offered = page.locator('section.member-area', { has: page.getByRole('heading', { name: 'Glaze Lab' }) });
  // The toggle shows the monthly price first; the yearly one is a press away.
  await expect(offered.getByRole('link', { name: 'Subscribe monthly' })).toBeVisible();
  await offered.getByRole('button', { name: 'Yearly' }).click();
  await expect(offered.getByRole('link', { name: 'Subscribe yearly' })).toBeVisible();
  await expect(offered).not.toContainText('You are a member.');
  await expectAccessible(page, 'member-access page after the subscription ended');
});
