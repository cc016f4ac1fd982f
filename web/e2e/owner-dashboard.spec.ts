//! The owner dashboard in real Chromium against the real server: a month of traffic written by
//! `vitrine analytics generate`, a reporting account made with `vitrine owner add`, /config/
//! with the preview of the site and the dashboard, its charts drawn from the server's tables,
//! the figures beyond views (campaigns, devices, products, errors), a custom range, axe-core
//! on every screen, and the site's own pages loading none of the charting code.

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { ownerCli, PASSWORD, signIn } from './support/owner-cli';
import { vitrineCli as cli } from './support/vitrine-cli';

const EMAIL = 'rita.reports@example.com';

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

function isoDate(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(({}, info) => {
  expect(cli(info, ['analytics', 'generate', '--days', '30', '--views-per-day', '150'])).toContain('over 30 days ending today');
  expect(ownerCli(info, ['add', EMAIL, '--role', 'reporting', '--password-stdin'], PASSWORD)).toContain(`Added ${EMAIL} as reporting.`);
});

test('a reporting owner sees the site and a month of traffic as charts on /config/, each with its table', async ({ page }) => {
  await signIn(page, EMAIL);
  // /config/ is the preview of the live site with the dashboard beside or below it.
  await expect(page.getByTitle('Preview of your site')).toHaveAttribute('src', '/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
  await page.getByRole('link', { name: 'Last 30 days' }).click();
  await expect(page).toHaveURL(/\/config\/\?range=30d/);
  await expect(page.getByRole('link', { name: 'Last 30 days' })).toHaveAttribute('aria-current', 'page');

  const traffic = page.locator('#dashboard-traffic-table tbody tr');
  await expect(traffic).toHaveCount(30);
  const views = await page.locator('#dashboard-traffic-table tbody tr td:first-of-type').allTextContents();
  expect(views.map(Number).reduce((sum, n) => sum + n, 0)).toBeGreaterThan(1000);

  // Each chart is drawn above its table, named for screen readers, from the table's figures.
  const charts = page.getByRole('img', { name: /^Chart: / });
  await expect(charts).toHaveCount(3);
  await expect(page.getByRole('img', { name: /Visitors and page views per day/ }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /Orders and revenue per day/ }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('img', { name: /Newsletter sign-ups per day/ }).locator('canvas')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top pages' })).toBeVisible();
  await expect(page.getByRole('row', { name: /^\/ \d+$/ })).toBeVisible();
  await expect(page.getByRole('cell', { name: /ms \((good|needs improvement|poor), \d+ samples\)/ }).first()).toBeVisible();

  // The figures the generated month brings beyond views: campaigns, devices, products, errors.
  await expect(page.getByRole('row', { name: /^newsletter \/ email \/ spring \d+$/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /^mobile \d+ \d+\.\d %$/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /^Ceramic mug \d+$/ })).toBeVisible();
  const errors = page.getByRole('region', { name: 'Script errors' });
  await expect(errors.getByRole('row', { name: /TypeError: cart is undefined [0-9a-f]{16} \d+ \d+/ }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Plugin failures' })).toBeVisible();
  await expectNoViolations(page, '/config/ with the dashboard\'s charts');

  await page.getByLabel('From', { exact: true }).fill(isoDate(9));
  await page.getByLabel('To', { exact: true }).fill(isoDate(0));
  await page.getByRole('button', { name: 'Show these days' }).click();
  await expect(page.getByText(`${isoDate(9)} to ${isoDate(0)}, compared with ${isoDate(19)} to ${isoDate(10)}.`)).toBeVisible();
  await expect(traffic).toHaveCount(10);
  await expect(charts).toHaveCount(3);
  await expectNoViolations(page, 'the dashboard of a custom range');
});

test('the preview keeps the page the owner came from, and only pages of this site', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/config/?frameUrl=%2Fabout');
  await expect(page.getByTitle('Preview of your site')).toHaveAttribute('src', '/about');
  // Picking a range keeps the page in the preview.
  await page.getByRole('link', { name: 'Today' }).click();
  await expect(page.getByTitle('Preview of your site')).toHaveAttribute('src', '/about');
  await expect(page.locator('#dashboard-traffic-table tbody tr')).toHaveCount(1);
  await page.goto('/config/?frameUrl=https%3A%2F%2Felsewhere.example%2F');
  await expect(page.getByTitle('Preview of your site')).toHaveAttribute('src', '/');
});

test('the dashboard keeps a page of its own', async ({ page }) => {
  await signIn(page, EMAIL);
  await page.goto('/config/dashboard?range=7d');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.locator('#dashboard-traffic-table tbody tr')).toHaveCount(7);
  await expect(page.getByRole('img', { name: /^Chart: / })).toHaveCount(3);
  await expectNoViolations(page, 'the dashboard\'s own page');
});

test('without JavaScript the dashboard is its tables', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/config/');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.goto('/config/dashboard?range=7d');
  await expect(page.locator('#dashboard-traffic-table tbody tr')).toHaveCount(7);
  await expect(page.getByRole('img', { name: /^Chart: / })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Core Web Vitals' })).toBeVisible();
  // axe-core needs script in the page, so it checks the same markup with JavaScript above.
  await context.close();
});

test('the site pages load none of the charting code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push(`${response.url()}\n${await response.text()}`);
  });
  for (const path of ['/', '/about', '/shop/sea-glass-mug']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(scripts.length).toBeGreaterThan(0);
  // uPlot's own class names survive minification; the dashboard's chunk is named after its entry.
  const withCharts = scripts.filter((script) => script.includes('u-over') || script.includes('/dashboard-'));
  expect(withCharts.map((script) => script.split('\n')[0])).toEqual([]);
});
