//! The 404 page: an unknown path answers 404 with a page that says so, loads cleanly and is accessible.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { describeProblems, watchPage } from './support/page-problems';
import { settlePage } from './support/site';

test('an unknown path answers 404 with an accessible "Page not found" page', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const url = new URL('/no-such-page', origin).href;
  const problems = watchPage(page, { origin, expectedErrorDocument: url });

  const response = await page.goto(url);
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-type'] ?? '').toMatch(/^text\/html/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Page not found/);

  expect(await settlePage(page), 'islands that did not mount').toEqual([]);
  const violations = await axeViolations(page);
  expect.soft(violations.length, formatViolations('/no-such-page', violations)).toBe(0);
  expect(describeProblems(problems), 'problems while loading the 404 page').toEqual([]);
});

test('the 404 page offers a way back to the home page', async ({ page }) => {
  await page.goto('/no-such-page');
  const home = page.locator('a[href="/"], a[href="./"]').first();
  await expect(home, 'a link to the home page').toBeVisible();
  await home.click();
  await expect(page).toHaveURL(/\/$/);
});
