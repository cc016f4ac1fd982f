//! Forms in real Chromium: the demo contact form and the newsletter block submitted for real, the spec's messages for invalid input and server failures, accessibility with errors showing, and the no-JavaScript post.

import { expect, test, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const contact = (page: Page) => page.locator('[data-island="form"]').first();

async function openContact(page: Page): Promise<void> {
  await page.goto('/contact');
  await contact(page).scrollIntoViewIfNeeded();
  await expect(contact(page)).toHaveAttribute('data-island-state', 'mounted');
}

async function fillContact(page: Page, email: string): Promise<void> {
  const form = contact(page);
  await form.getByLabel('First').fill('Ada');
  await form.getByLabel('Last').fill('Lovelace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Subject').selectOption({ index: 1 });
  await form.getByLabel('Message').fill('A bowl arrived chipped; could you send another?');
}

test('the contact form is submitted for real and shows its success view', async ({ page }) => {
  const rendered = page.waitForRequest((request) => request.url().includes('/api/census/form-render'));
  await openContact(page);
  expect((await rendered).postDataJSON()).toMatchObject({ formId: 'contact', pagePath: '/contact' });
  await fillContact(page, 'ada@example.com');
  const saved = page.waitForResponse((response) => response.url().includes('/api/form/SaveFormSubmission'));
  await contact(page).getByRole('button', { name: 'Send message' }).click();
  expect((await saved).status()).toBe(200);
  const success = contact(page).locator('.form__success');
  await expect(success).toBeVisible();
  await expect(success).toContainText('Thank you! We read every message');
  await expect(success).toBeFocused();
  await expect(contact(page).getByRole('button', { name: 'Send message' })).toBeHidden();
});

test('an invalid email shows the verbatim message at its field, and axe finds nothing', async ({ page }) => {
  await openContact(page);
  await fillContact(page, 'not-an-email');
  await contact(page).getByRole('button', { name: 'Send message' }).click();
  const message = 'Email is not valid. Email addresses should follow the format name@example.com.';
  await expect(contact(page).locator('.field__error')).toHaveText(message);
  const email = contact(page).getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toBeFocused();
  await expect(contact(page).locator('.form__status').first()).toHaveText('Your form has encountered a problem. Please scroll down to review.');
  const violations = await axeViolations(page);
  expect(violations, formatViolations('contact page with errors', violations)).toEqual([]);
});

test('a server 400 shows at its field, and 429 and 500 show their messages', async ({ page }) => {
  await openContact(page);
  await fillContact(page, 'ada@example.com');
  const answers = [
    { status: 400, body: { error: 'One or more fields is invalid, please check your entries.', errors: { email: 'That address bounced.' } } },
    { status: 429, body: { error: 'Unable to submit form. Submission rate limit exceeded. Please try again later.' } },
    { status: 500, body: { error: 'Unable to send form. Please try again later.' } },
  ];
  let next = 0;
  await page.route('**/api/form/SaveFormSubmission**', (route) => {
    const answer = answers[next++]!;
    return route.fulfill({ status: answer.status, contentType: 'application/json', body: JSON.stringify(answer.body) });
  });
  const button = contact(page).getByRole('button', { name: 'Send message' });
  await button.click();
  await expect(contact(page).locator('.field__error')).toHaveText('That address bounced.');
  await button.click();
  await expect(contact(page).locator('.form__status').first()).toHaveText(
    'Unable to submit form. Submission rate limit exceeded. Please try again later.',
  );
  await expect(contact(page).locator('.field__error')).toHaveCount(0);
  await button.click();
  await expect(contact(page).locator('.form__status').first()).toHaveText('Unable to send form. Please try again later.');
});

test('the newsletter block signs up and thanks the visitor', async ({ page }) => {
  await page.goto('/');
  const block = page.locator('[data-island="newsletter"]').first();
  // Islands mount as they come near the viewport.
  await block.scrollIntoViewIfNeeded();
  await expect(block).toHaveAttribute('data-island-state', 'mounted');
  await block.getByLabel('Email address').fill('reader@example.com');
  await block.getByRole('button').click();
  await expect(block.locator('.newsletter__success')).toHaveText('Thank you for signing up.');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the contact form posts to a thank-you page', async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('[data-island="form"] form').first();
    await form.getByLabel('First').fill('Ada');
    await form.getByLabel('Last').fill('Lovelace');
    await form.getByLabel('Email').fill('ada@example.com');
    await form.getByLabel('Subject').selectOption({ index: 1 });
    await form.getByLabel('Message').fill('Hello from a browser without scripts.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(page.locator('h1')).toHaveText('Thank you');
    await expect(page.locator('main')).toContainText('Thank you! We read every message');
    await expect(page.getByRole('link', { name: 'Back to the page' })).toHaveAttribute('href', '/contact');
  });
});
