//! The owner area in real Chromium against the real server: accounts made with the `vitrine owner`
//! command line, sign-in at /config/ with the first screen (preview frame, sessions, API keys),
//! the setup link, Escape and Shift+Escape on the live site, the 'Logout Successful' dialog, and
//! axe-core on every /config screen.

import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { vitrineCli } from './support/vitrine-cli';

const PASSWORD = 'correct horse battery';

/** Runs `vitrine owner ...` on the test server's database; its standard output. */
function ownerCli(info: TestInfo, args: string[], input?: string): string {
  return vitrineCli(info, ['owner', ...args, '--public-url', info.project.use.baseURL ?? ''], input);
}

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/config/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
}

/** Waits until the page holds the signed-in owner's context (fetched after load), then answers the cookie banner. */
async function ownerContextLoaded(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.getElementById('vitrine-page-context')?.textContent ?? ''))
    .toContain('"websiteRoles":{"admin":1}');
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
}

test.describe.configure({ mode: 'serial' });

test('an owner made on the command line signs in at /config/ and sees the first screen', async ({ page }, info) => {
  const added = ownerCli(info, ['add', 'ada@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
  expect(added).toContain('Added ada@example.com as admin.');
  await page.goto('/config/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectNoViolations(page, 'the sign-in form');

  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The email or password is incorrect.');
  await expectNoViolations(page, 'the sign-in form with an error');

  await signIn(page, 'ada@example.com');
  await expect(page.getByTitle('Preview of your site')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Signed-in browsers' })).toBeVisible();
  await expectNoViolations(page, 'the first screen');

  await page.getByLabel('Key name').fill('nightly export');
  await page.getByLabel('config').check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.locator('.owner-new-key').textContent();
  expect(key).toMatch(/^vk_[0-9a-f]{64}$/);
  await expectNoViolations(page, 'the first screen with a new key');
  const report = await page.request.get('/api/analytics/report', { headers: { Authorization: `Bearer ${key}` } });
  expect(report.status()).toBe(200);
});

test('Escape opens /config/ for a signed-in owner, and Shift+Escape logs out with the notice', async ({ page }) => {
  await signIn(page, 'ada@example.com');
  // On 127.0.0.1 the owner is not redirected (000 s2's localhost exception).
  await page.goto('/?page=1');
  await ownerContextLoaded(page);
  await expect(page).toHaveURL(/\/\?page=1$/);
  // An owner gets the announcement bar with the preview notice (000 s1).
  const bar = page.getByRole('complementary', { name: 'Owner tools' });
  await expect(bar).toContainText('Preview: you are signed in, so this visit is not counted in your analytics.');
  // The demo's popup overlay opens once cookies are answered: Escape closes it first (000 s2).
  const popup = page.getByRole('dialog', { name: 'Studio letters' });
  await expect(popup).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(popup).toBeHidden();
  await expect(page).toHaveURL(/\/\?page=1$/);
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/config\/\?frameUrl=%2F%3Fpage%3D1$/);
  await expect(page.getByTitle('Preview of your site')).toHaveAttribute('src', '/?page=1');

  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeHidden();
  await expect
    .poll(() => page.evaluate(() => document.getElementById('vitrine-page-context')?.textContent ?? ''))
    .toContain('"websiteRoles":{"admin":1}');
  await page.keyboard.press('Shift+Escape');
  await expect(page).toHaveURL(/\/\?logout=true$/);
  const notice = page.getByRole('dialog', { name: 'Logout Successful' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('You have been successfully logged out.');

  // Signed out: /config/ asks to sign in again, and Escape on the live site does nothing.
  await page.goto('/config/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.goto('/');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/$/);
});

test('a setup link printed by the command line sets the password', async ({ page }, info) => {
  const printed = ownerCli(info, ['add', 'sam@example.com', '--role', 'store-manager']);
  const link = printed.match(/https?:\/\/\S+\/config\/setup\?token=[0-9a-f]{64}/)?.[0];
  expect(link, printed).toBeDefined();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(page.getByText('For sam@example.com.')).toBeVisible();
  await expectNoViolations(page, 'the setup form');
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(page.getByText('Signed in as sam@example.com (store manager)')).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/\?logout=true$/);
  await expect(page.getByRole('dialog', { name: 'Logout Successful' })).toBeVisible();
});
