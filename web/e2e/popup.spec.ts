//! The popup overlay in real Chromium on the demo site: it waits for the consent decision, opens as
//! a modal dialog, closes, stays away, and returns displayFrequency (7) days later on a controlled
//! clock; its newsletter form signs up through the form calls and keeps it away for good; census
//! overlay events are sent; axe finds no violations with it open.

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The demo's displayFrequency. */
const FREQUENCY_DAYS = 7;
const START = new Date('2026-03-02T10:00:00Z').getTime();

function popup(page: Page) {
  return page.getByRole('dialog', { name: 'Studio letters' });
}

/** Census overlay events the page sends, in order. */
function overlayEvents(page: Page): string[] {
  const events: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/census/overlay')) {
      events.push((JSON.parse(request.postData() ?? '{}') as { event?: string }).event ?? '');
    }
  });
  return events;
}

async function accept(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
}

test('the popup waits for the consent decision, closes, and returns after displayFrequency days', async ({ page }) => {
  await page.clock.setFixedTime(START);
  const events = overlayEvents(page);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  // Never before the decision, nor on top of the banner.
  await expect(popup(page)).toBeHidden();
  await accept(page);
  await expect(popup(page)).toBeVisible();
  await expect(popup(page)).toContainText('One short letter a month');
  // A modal dialog takes focus to its first control.
  await expect(popup(page).getByRole('button', { name: 'Close' })).toBeFocused();
  await popup(page).getByRole('button', { name: 'Close' }).click();
  await expect(popup(page)).toBeHidden();
  const record = await page.evaluate(() => localStorage.getItem('squarespace-popup-overlay'));
  expect(JSON.parse(record ?? '{}')).toEqual({ 'date-closed': START, version: 1, submitted: false });

  await page.clock.setFixedTime(START + FREQUENCY_DAYS * DAY_MS - 60_000);
  await page.reload();
  await page.waitForLoadState('networkidle');
  await expect(popup(page)).toBeHidden();

  await page.clock.setFixedTime(START + FREQUENCY_DAYS * DAY_MS);
  await page.reload();
  await expect(popup(page)).toBeVisible();
  // Escape closes it like the close button.
  await page.keyboard.press('Escape');
  await expect(popup(page)).toBeHidden();
  await expect.poll(() => events).toEqual(['show', 'close', 'show', 'close']);
});

test('signing up in the popup goes through the form calls and keeps it away', async ({ page }) => {
  await page.clock.setFixedTime(START);
  const events = overlayEvents(page);
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/form/SaveFormSubmission')) saves.push(request.postData() ?? '');
  });
  await page.goto('/');
  await accept(page);
  await expect(popup(page)).toBeVisible();
  await popup(page).getByLabel('Email address').fill('ada@example.com');
  await popup(page).getByRole('button', { name: 'Subscribe' }).click();
  await expect(popup(page).getByText('Thank you for signing up.')).toBeVisible();
  // The signup is recorded when the save answers; closing before that would race it.
  await expect.poll(() => events).toEqual(['show', 'submit']);
  expect(saves).toHaveLength(1);
  const payload = new URLSearchParams(saves[0]);
  expect(payload.get('formId')).toBe('popup-overlay');
  expect(payload.get('isOverlayForm')).toBe('true');
  await popup(page).getByRole('button', { name: 'Close' }).click();
  const record = JSON.parse((await page.evaluate(() => localStorage.getItem('squarespace-popup-overlay'))) ?? '{}') as Record<string, unknown>;
  expect(record['submitted']).toBe(true);
  await expect.poll(() => events).toEqual(['show', 'submit', 'close']);

  // showUntilSignup: long after displayFrequency days it still stays away.
  await page.clock.setFixedTime(START + 100 * DAY_MS);
  await page.reload();
  await page.waitForLoadState('networkidle');
  await expect(popup(page)).toBeHidden();
});

test('axe finds no violations with the popup open', async ({ page }) => {
  await page.goto('/');
  await accept(page);
  await expect(popup(page)).toBeVisible();
  // The newsletter island has mounted inside the dialog.
  await expect(popup(page).locator('[data-island="newsletter"]')).toHaveAttribute('data-island-state', 'mounted');
  const violations = await axeViolations(page);
  expect(violations, formatViolations('home page with the popup overlay open', violations)).toEqual([]);
});
