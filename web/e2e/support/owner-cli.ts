//! Owner accounts for browser tests: `vitrine owner ...` run on the test server's database, and
//! signing in at /config/.

import { expect, type Page, type TestInfo } from '@playwright/test';
import { vitrineCli } from './vitrine-cli';

export const PASSWORD = 'correct horse battery';

/** Runs `vitrine owner ...` on the test server's database; its standard output. */
export function ownerCli(info: TestInfo, args: string[], input?: string): string {
  return vitrineCli(info, ['owner', ...args, '--public-url', info.project.use.baseURL ?? ''], input);
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/config/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
}
