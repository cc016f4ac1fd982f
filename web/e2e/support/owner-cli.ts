//! Owner accounts for browser tests: `vitrine owner ...` run on the test server's database, and
//! signing in at /config/.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, type TestInfo } from '@playwright/test';

const webDir = fileURLToPath(new URL('../..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
export const PASSWORD = 'correct horse battery';

/** Runs `vitrine owner ...` on the test server's database; its standard output. */
export function ownerCli(info: TestInfo, args: string[], input?: string): string {
  const dataDir = info.config.metadata['dataDir'] as string;
  return execFileSync(binary, ['owner', ...args, '--data-dir', dataDir, '--public-url', info.project.use.baseURL ?? ''], {
    input,
    encoding: 'utf8',
    env: { ...process.env, RUST_LOG: 'warn' },
  });
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/config/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
}
