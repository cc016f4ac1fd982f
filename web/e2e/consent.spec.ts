//! Cookie consent in real Chromium: the banner shows, accept and decline each take one click and
//! persist, GPC counts as a decline and says so, refused tracking cookies leave the cookie jar,
//! page views reach the census, and axe finds nothing wrong with the banner open.

import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const BANNER = '[data-vitrine-cookie-banner]';
const TRACKING = ['SS_MATTR', 'SS_MID', 'SS_lastvisit', 'user_segment', 'ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt'];

async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((cookie) => cookie.name);
}

async function consentCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === 'ss_cookieAllowed')?.value;
}

function banner(page: Page) {
  return page.getByRole('region', { name: 'Cookie consent' });
}

test('the banner shows until the visitor accepts, then stays away', async ({ page, context }) => {
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toContainText('By using this website, you agree to our use of cookies.');
  const accept = banner(page).getByRole('button', { name: 'Accept' });
  const decline = banner(page).getByRole('button', { name: 'Decline' });
  // Equal visual weight: the two buttons are the same size.
  const [a, d] = [await accept.boundingBox(), await decline.boundingBox()];
  expect(Math.abs((a?.height ?? 0) - (d?.height ?? 1))).toBeLessThan(1);
  await accept.click();
  await expect(page.locator(BANNER)).toHaveCount(0);
  expect(await consentCookie(context)).toBe('true');
  await page.reload();
  await expect(page.locator(BANNER)).toHaveCount(0);
  // Accepted: the visitor cookie is kept.
  await expect.poll(async () => (await cookieNames(context)).includes('ss_cvr')).toBe(true);
});

test('declining by keyboard takes one key press and clears tracking cookies', async ({ page, context, baseURL }) => {
  const url = new URL(baseURL ?? '');
  await context.addCookies(TRACKING.map((name) => ({ name, value: '1', domain: url.hostname, path: '/' })));
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await banner(page).getByRole('button', { name: 'Decline' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator(BANNER)).toHaveCount(0);
  expect(await consentCookie(context)).toBe('false');
  await page.reload();
  await expect(page.locator(BANNER)).toHaveCount(0);
  const left = (await cookieNames(context)).filter((name) => TRACKING.includes(name));
  expect(left, 'tracking cookies left in the cookie jar after a decline').toEqual([]);
});

test('a Global Privacy Control signal counts as a decline and the banner says so', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Sec-GPC': '1' } });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  const page = await context.newPage();
  const receipts: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/consent/receipts')) receipts.push(request.postData() ?? '');
  });
  await page.goto('/');
  await expect(banner(page)).toContainText('Global Privacy Control');
  await expect.poll(() => receipts.length).toBe(1);
  expect(JSON.parse(receipts[0]!)).toEqual({ choice: 'declined', source: 'gpc' });
  expect(await consentCookie(context)).toBe('false');
  expect((await cookieNames(context)).filter((name) => TRACKING.includes(name))).toEqual([]);
  await context.close();
});

test('page views are recorded, and not on /search', async ({ page }) => {
  const hits: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/census/RecordHit')) hits.push(request.postData() ?? '');
  });
  await page.goto('/');
  await expect.poll(() => hits.length).toBe(1);
  const data = JSON.parse(new URLSearchParams(hits[0]).get('data') ?? '{}') as Record<string, unknown>;
  expect(data['pagePath']).toBe('/');
  // Undecided under OPT_IN: counted without a visitor cookie.
  expect(new URLSearchParams(hits[0]).get('ss_cvr')).toBeNull();
  await page.goto('/search');
  await page.waitForLoadState('networkidle');
  expect(hits.length).toBe(1);
});

test('axe finds no violations with the banner open', async ({ page }) => {
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  const violations = await axeViolations(page);
  expect(violations, formatViolations('home page with the cookie banner', violations)).toEqual([]);
});
