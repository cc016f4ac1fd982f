//! A site user's account as a visitor makes one in the browser: sign up on the page, confirm
//! from the mailed link (caught by the SMTP sink of a mail server), and sign in, for the
//! browser tests that need a signed-in visitor.

import { expect, type Page } from '@playwright/test';
import { mailTo, mailedLink } from './mail-server';

/** Signs up with `email` and `password` on the server at `base` and confirms the address
 * from the first mail the sink caught for it. */
export async function createAccount(page: Page, base: string, mails: readonly string[], email: string, password: string): Promise<void> {
  await page.goto(`${base}/account/sign-up`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toContainText('Check your email');
  await page.goto(mailedLink(await mailTo(mails, email, 1), base, '/account/confirm'));
  await page.getByRole('button', { name: 'Confirm my address' }).click();
  await expect(page.getByRole('status')).toHaveText('Your email address is confirmed. You can sign in now.');
}

/** Signs in on the sign-in page, which then leads to `returnTo`. */
export async function signIn(page: Page, base: string, email: string, password: string, returnTo: string): Promise<void> {
  await page.goto(`${base}/account/sign-in?return=${returnTo}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${base}${returnTo}`);
}
