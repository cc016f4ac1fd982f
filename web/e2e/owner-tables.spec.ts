//! The owner's tables at /config/ in real Chromium against the real server: an owner made on the command line
//! signs in, pages through the form submissions and searches them, exports them as CSV, hides a buyer's review
//! and approves it again to see it back on the product page, and marks an order fulfilled with a tracking link.
//! axe-core finds no violations on any table screen.

import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { buyVariant, reviewRequestPath } from './support/purchase';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
const PASSWORD = 'correct horse battery';
const OWNER = 'tables-owner@example.com';
// A product no other browser test reviews, since every test file shares one server.
const PLATES = '/shop/speckled-plate-set';
const REVIEW_TITLE = 'Speckles like a quail egg';

function addOwner(info: TestInfo): void {
  const dataDir = info.config.metadata['dataDir'] as string;
  execFileSync(binary, ['owner', 'add', OWNER, '--role', 'admin', '--password-stdin', '--data-dir', dataDir, '--public-url', info.project.use.baseURL ?? ''], {
    input: PASSWORD,
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'warn' },
  });
}

async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/config/');
  await page.getByLabel('Email').fill(OWNER);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${OWNER}`)).toBeVisible();
}

/**
 * Sends the demo contact form `count` times, as visitors do, each message naming its number. A visitor may send
 * ten a minute, so every few messages come from a new browser context, which is a new visitor.
 */
async function sendContactMessages(browser: Browser, count: number): Promise<void> {
  for (let first = 1; first <= count; first += 8) {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (let n = first; n < Math.min(first + 8, count + 1); n += 1) {
      await page.goto('/contact');
      const form = page.locator('[data-island="form"]').first();
      await expect(form).toHaveAttribute('data-island-state', 'mounted');
      await form.getByLabel('First').fill('Table');
      await form.getByLabel('Last').fill(`Tester ${n}`);
      await form.getByLabel('Email').fill(`table${n}@example.com`);
      await form.getByLabel('Subject').selectOption({ index: 1 });
      await form.getByLabel('Message').fill(n === 7 ? '=SUM(A1:A9), a formula that must stay text' : `Owner table message ${n}`);
      await form.getByRole('button', { name: 'Send message' }).click();
      await expect(form.locator('.form__success')).toBeVisible();
    }
    await context.close();
  }
}

/** Buys the set of two plates and reviews it through the buyer's review link; the order's id. */
async function buyAndReview(page: Page): Promise<string> {
  const orderId = await buyVariant(page, PLATES, 'TLZ-PLATE-2', {
    email: 'table-buyer@example.com',
    name: 'Grace Buyer',
    address: '2 Harbour Road',
    city: 'Springfield',
    region: 'MA',
    postalCode: '12345',
    country: 'US',
  });
  await page.goto(await reviewRequestPath(page, orderId, 'Grace'));
  const review = page.locator('form.review-form').first();
  await expect(page.locator('#reviews-root')).toHaveAttribute('data-island-state', 'mounted');
  await review.getByLabel('5 stars').check();
  await review.getByLabel('Title (optional)').fill(REVIEW_TITLE);
  await review.getByRole('button', { name: 'Submit review' }).click();
  await expect(page.getByRole('status')).toHaveText('Thanks for your feedback');
  return orderId;
}

test.describe.configure({ mode: 'serial' });

test('an owner pages through the submissions, searches them and exports them as CSV', async ({ page, browser }, info) => {
  test.setTimeout(240_000);
  addOwner(info);
  await sendContactMessages(browser, 27);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Tables' }).getByRole('link', { name: 'Form submissions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Form submissions' })).toBeVisible();
  await expect(page.locator('table.owner-table')).toContainText('Owner table message 27');
  await expectNoViolations(page, 'the submissions table');

  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/\/config\/submissions\?page=2$/);
  await expect(page.locator('.owner-table-pages')).toContainText('Page 2 of');
  await expect(page.getByRole('link', { name: 'Previous page' })).toBeVisible();

  await page.getByLabel('Search form submissions').fill('Owner table message 13');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status')).toHaveText('1 submission matches “Owner table message 13”.');
  await expect(page.locator('table.owner-table tbody tr')).toHaveCount(1);
  await expectNoViolations(page, 'the submissions table with a search');

  await page.getByLabel('Search form submissions').fill('table');
  await page.getByRole('button', { name: 'Search' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('submissions.csv');
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toMatch(/^id,form_id,created_at,spam,/);
  expect(lines.filter((line) => line.includes('table') && line.includes('@example.com'))).toHaveLength(27);
  expect(csv).toContain(`"'=SUM(A1:A9), a formula that must stay text"`);
});

test('an owner hides a review, approves it again and sees it on the product page', async ({ page }) => {
  test.setTimeout(120_000);
  await buyAndReview(page);
  await signIn(page);
  await page.goto('/config/reviews');
  await expectNoViolations(page, 'the reviews table');
  await page.getByLabel('Search reviews').fill(REVIEW_TITLE);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: /^Hide the review by Grace/ }).click();
  await expect(page.getByRole('button', { name: /^Approve the review by Grace/ })).toBeVisible();
  await page.goto(PLATES);
  await expect(page.locator('.product-reviews')).not.toContainText(REVIEW_TITLE);

  await page.goto(`/config/reviews?q=${encodeURIComponent(REVIEW_TITLE)}`);
  await page.getByRole('button', { name: /^Approve the review by Grace/ }).click();
  await page.getByLabel(/^Reply to the review by Grace/).fill('Thank you, Grace!');
  await page.getByRole('button', { name: 'Save reply' }).click();
  await expectNoViolations(page, 'the reviews table after moderating');
  await page.goto(PLATES);
  await expect(page.locator('.review__title', { hasText: REVIEW_TITLE })).toBeVisible();
  await expect(page.locator('.review__reply')).toContainText('Thank you, Grace!');
});

test('an owner marks an order fulfilled with a tracking link, and every table passes axe', async ({ page }) => {
  await signIn(page);
  await page.goto('/config/orders?q=table-buyer%40example.com');
  await expectNoViolations(page, 'the orders table');
  const row = page.locator('table.owner-table tbody tr').first();
  await expect(row).toContainText('Not fulfilled');
  await row.getByLabel(/^Tracking link for order/).fill('https://track.example/parcel/42');
  await row.getByRole('button', { name: /^Mark order .* fulfilled$/ }).click();
  await expect(row).toContainText('Fulfilled');
  await expect(row.getByRole('link', { name: /^Tracking for order/ })).toHaveAttribute('href', 'https://track.example/parcel/42');
  await expectNoViolations(page, 'the orders table after fulfilment');

  for (const table of ['subscribers', 'consent-receipts']) {
    await page.goto(`/config/${table}`);
    await expect(page.locator('table.owner-table')).toBeVisible();
    await expectNoViolations(page, `the ${table} table`);
  }
});
