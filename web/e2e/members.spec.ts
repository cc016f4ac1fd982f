//! Member areas in real Chromium, on the demo's members-only page `/studio-notes` (free area
//! `studio-friends`): an anonymous visitor sees nothing of it on the page, in search or in the
//! sitemap; a visitor signs up on the member-access page, confirms from the mailed link (caught
//! by an SMTP sink), signs in, is refused until they join, then reads the page; signs out; and
//! resets the password from a mailed link. axe finds nothing on any of these pages.
//!
//! These pages need a server with mail configured, so this file starts its own server next to
//! the shared one, two ports up, with its own fresh database.

import { expect, type Page, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { type MailServer, mailedLink, startMailServer } from './support/mail-server';

const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 2;
const base = `http://127.0.0.1:${port}`;
const mails: string[] = [];
let server: MailServer | undefined;

const EMAIL = 'member@example.com';
const PASSWORD = 'a long clay password';
/** Words only the members' page holds. */
const SECRET = 'Sea-glass celadon';

test.beforeAll(async () => {
  server = await startMailServer('members', port, mails);
});

test.afterAll(async () => {
  await server?.stop();
});

async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

/** The newest mail to `to` once it has arrived. */
async function mailTo(to: string, count: number): Promise<string> {
  await expect.poll(() => mails.filter((mail) => mail.includes(`To: ${to}`)).length, { timeout: 20_000 }).toBe(count);
  return mails.filter((mail) => mail.includes(`To: ${to}`)).at(-1)!;
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

  await page.goto(mailedLink(await mailTo(EMAIL, 1), base, '/account/confirm'));
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
  await page.goto(mailedLink(await mailTo(EMAIL, 2), base, '/account/reset'));
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
