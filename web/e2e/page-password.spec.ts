//! The demo's password-protected page `/kiln-log` in real Chromium, without JavaScript as
//! with it: the lock screen (page type 103) offers a labelled password form and shows nothing
//! of the page; a wrong password shows the reason on the lock screen; the right one opens the
//! page for this browser session only; search and the sitemap never show it to a visitor who
//! has not entered it. axe finds nothing on the lock screen, with or without the error (with
//! JavaScript on, since axe runs as a script).

import { expect, type Page, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const PASSWORD = 'open the kiln';
/** Words only the locked page holds. */
const SECRET = 'oxblood';

async function expectAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

async function expectLockScreen(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page is locked');
  await expect(page.locator('body')).not.toContainText(SECRET);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('the lock screen asks for the password, refuses a wrong one and opens with the right one', async ({ page, browser }) => {
      const answer = await page.goto('/kiln-log');
      expect(answer?.status()).toBe(403);
      await expectLockScreen(page);
      // axe runs as a script in the page, so it checks the pages with JavaScript on.
      if (javaScriptEnabled) await expectAccessible(page, 'lock screen');

      await page.getByLabel('Password').fill('open the door');
      await page.getByRole('button', { name: 'Unlock' }).click();
      await expectLockScreen(page);
      await expect(page.getByRole('alert')).toHaveText('That password is not right. Please try again.');
      if (javaScriptEnabled) await expectAccessible(page, 'lock screen with the error');

      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Unlock' }).click();
      await expect(page).toHaveURL(/\/kiln-log$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kiln log');
      await expect(page.locator('main')).toContainText(SECRET);
      await page.reload();
      await expect(page.locator('main')).toContainText(SECRET);

      // The cookie is HttpOnly, so no script of the page can read it and pass it on.
      const cookies = await page.context().cookies();
      const unlock = cookies.find((cookie) => cookie.name.startsWith('unlock-'));
      expect(unlock?.httpOnly).toBe(true);
      expect(unlock?.expires).toBe(-1);

      // Another browser has not entered it.
      const stranger = await browser.newPage({ javaScriptEnabled });
      expect((await stranger.goto('/kiln-log'))?.status()).toBe(403);
      await expectLockScreen(stranger);
      await stranger.close();
    });
  });
}

test('search and the sitemap never show the locked page to a visitor without its password', async ({ page, request }) => {
  await page.goto(`/search?q=${SECRET}`);
  await expect(page.locator('main')).toContainText(`No results for “${SECRET}”`);
  await expect(page.locator('main a[href*="kiln-log"]')).toHaveCount(0);
  await expect(page.locator('main')).not.toContainText('Kiln log');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).not.toContain('kiln-log');
});
