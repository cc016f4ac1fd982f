//! Newsletter double opt-in in real Chromium: a sign-up on the demo home page mails a confirmation link (caught by a small SMTP sink), the link's page confirms, and the unsubscribe page (page type 300) works without JavaScript; axe finds nothing on either page.
//!
//! These pages need a server with mail configured, so this file starts its own server next to the shared one, on the next port, with its own fresh database.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { type MailServer, mailedLink, startMailServer } from './support/mail-server';

const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 1;
const base = `http://127.0.0.1:${port}`;

/** Mails as the sink received them. */
const mails: string[] = [];
let server: MailServer | undefined;

test.beforeAll(async () => {
  server = await startMailServer('newsletter', port, mails, ['--newsletter-double-opt-in']);
});

test.afterAll(async () => {
  await server?.stop();
});

function link(mail: string, path: string): string {
  return mailedLink(mail, base, path);
}

test('a sign-up is confirmed from the mailed link and ended on the unsubscribe page', async ({ page, browser }) => {
  await page.goto(`${base}/`);
  const block = page.locator('[data-island="newsletter"]').first();
  await block.scrollIntoViewIfNeeded();
  await expect(block).toHaveAttribute('data-island-state', 'mounted');
  await block.getByLabel('Email address').fill('reader@example.com');
  await block.getByRole('button').click();
  await expect(block.locator('.newsletter__success')).toHaveText('Thank you for signing up.');

  await expect.poll(() => mails.length, { timeout: 15_000 }).toBe(1);
  const mail = mails[0]!;
  expect(mail).toContain('Subject: Please confirm your subscription');
  const confirm = link(mail, '/newsletter/confirm');
  const unsubscribe = link(mail, '/newsletter/unsubscribe');

  await page.goto(confirm);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription');
  const confirmViolations = await axeViolations(page);
  expect(confirmViolations, formatViolations('confirmation page', confirmViolations)).toEqual([]);
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('status')).toHaveText('Thank you. Your subscription is confirmed.');

  await page.goto(unsubscribe);
  const violations = await axeViolations(page);
  expect(violations, formatViolations('unsubscribe page', violations)).toEqual([]);

  // The unsubscribe page needs no JavaScript: a mail client may open it anywhere.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(unsubscribe);
  await expect(plain.locator('body')).toHaveAttribute('data-page-type', '300');
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText('Unsubscribe');
  await expect(plain.getByText('Stop receiving this newsletter at reader@example.com.')).toBeVisible();
  await plain.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(plain.getByRole('status')).toHaveText('You have been unsubscribed. You will receive no more mail from this list.');
  await noScript.close();
});
