//! The absolute restrictive cookie policy in real Chromium: whatever the visitor does (nothing, accept, decline, or no JavaScript at all), the browser's cookie jar ends up holding none of the tracking cookies of 000 s9, including ones planted beforehand, which the server expires; page views are still counted, without cookies, as the owner's report shows; axe finds nothing wrong with the banner open.
//!
//! The demo site does not use this policy, so this file imports a copy of the demo bundle with the policy switched on into its own fresh database and starts its own server, two ports above the shared one.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const binary = process.env['VITRINE_BIN'] ? resolve(process.env['VITRINE_BIN']) : resolve(webDir, '../target/debug/vitrine');
// The newsletter test's own server takes the next port; this one takes the one after, so a
// server still shutting down there is never mistaken for this one.
const port = Number(process.env['VITRINE_E2E_PORT'] ?? '18080') + 2;
const base = `http://127.0.0.1:${port}`;
// At least 32 bytes, as the server requires of owner tokens.
const ownerToken = 'restrictive-policy-owner-token-0123456789';

const TRACKING = ['SS_MATTR', 'SS_MID', 'SS_lastvisit', 'user_segment', 'ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt'];
/** Where old tracking cookies are planted: the site root, and the directory of a journal post (where a page script without a path would have set them). */
const PLANTED_PATHS = ['/', '/journal'];

const workDir = join(tmpdir(), `vitrine-e2e-restrictive-${port}`);
// The last test reads the page views the browsing tests before it made.
test.describe.configure({ mode: 'serial' });
let vitrine: ChildProcess | undefined;

/** The demo bundle with the restrictive policy on, absolutely: no tracking cookie even after an accept. */
function restrictiveBundle(): string {
  const bundle = join(workDir, 'bundle');
  cpSync(resolve(webDir, '../adapters/demo-site'), bundle, { recursive: true });
  const siteToml = join(bundle, 'site.toml');
  const original = readFileSync(siteToml, 'utf8');
  const changed = original.replace('[settings.cookies]\n', '[settings.cookies]\nrestrictive_policy_enabled = true\nrestrictive_policy_absolute = true\n');
  if (changed === original) throw new Error('the demo site.toml has no [settings.cookies] table to change');
  writeFileSync(siteToml, changed);
  return bundle;
}

test.beforeAll(async () => {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const dataDir = join(workDir, 'data');
  const imported = spawnSync(binary, ['import', restrictiveBundle(), '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, RUST_LOG: 'warn' } });
  if (imported.status !== 0) throw new Error(`vitrine import failed:\n${imported.stderr}`);
  vitrine = spawn(binary, ['serve', '--plain-http', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, RUST_LOG: 'warn', VITRINE_OWNER_TOKEN: ownerToken },
  });
  let exited: number | null | undefined;
  vitrine.once('exit', (code) => (exited = code));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the restrictive-policy server exited with ${exited} before answering on ${base}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the restrictive-policy server did not start on ${base}`);
    await new Promise((wait) => setTimeout(wait, 200));
  }
});

test.afterAll(() => {
  vitrine?.kill('SIGTERM');
});

/** The census's answer to one page view (`{recorded, cookieless}`), and whether the hit carried a visitor cookie. */
type HitAnswer = { recorded: boolean; cookieless?: boolean; excluded?: string; sentVisitorCookie: boolean };

async function plantedContext(browser: Browser, javaScriptEnabled = true): Promise<BrowserContext> {
  const context = await browser.newContext({ javaScriptEnabled });
  await context.addCookies(
    PLANTED_PATHS.flatMap((path) => TRACKING.map((name) => ({ name, value: 'planted', domain: '127.0.0.1', path, expires: Date.now() / 1000 + 86_400 }))),
  );
  expect(await context.cookies()).toHaveLength(TRACKING.length * PLANTED_PATHS.length);
  return context;
}

function watchHits(context: BrowserContext): HitAnswer[] {
  const answers: HitAnswer[] = [];
  context.on('response', async (response) => {
    if (!response.url().includes('/api/census/RecordHit')) return;
    // The visitor cookie never travels with a hit under this policy.
    const sent = new URLSearchParams(response.request().postData() ?? '');
    answers.push({ ...((await response.json()) as Omit<HitAnswer, 'sentVisitorCookie'>), sentVisitorCookie: sent.has('ss_cvr') });
  });
  return answers;
}

async function trackingLeft(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).filter((cookie) => TRACKING.includes(cookie.name)).map((cookie) => `${cookie.name} at ${cookie.path}`);
}

function banner(page: Page) {
  return page.getByRole('region', { name: 'Cookie consent' });
}

/** Visits a shop page and a journal post, then a page from each again, waiting for each page's calls. */
async function browse(page: Page): Promise<void> {
  for (const path of ['/shop', '/journal/lisbon-light', '/about']) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState('networkidle');
  }
}

let hitsSeen = 0;

test('without a decision no tracking cookie survives, planted ones included, and the banner passes axe', async ({ browser }) => {
  const context = await plantedContext(browser);
  const answers = watchHits(context);
  const page = await context.newPage();
  await page.goto(`${base}/journal/lisbon-light`);
  await expect(banner(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  const violations = await axeViolations(page);
  expect(violations, formatViolations('journal post with the banner open', violations)).toEqual([]);
  await browse(page);
  expect(await trackingLeft(context), 'tracking cookies in the jar before any decision').toEqual([]);
  await expect.poll(() => answers.length).toBe(4);
  expect(answers.every((answer) => answer.recorded && answer.cookieless === true && !answer.sentVisitorCookie), JSON.stringify(answers)).toBe(true);
  hitsSeen += answers.length;
  await context.close();
});

for (const choice of ['Accept', 'Decline'] as const) {
  test(`after ${choice === 'Accept' ? 'accepting' : 'declining'} no tracking cookie is kept and page views are counted without cookies`, async ({ browser }) => {
    const context = await plantedContext(browser);
    const answers = watchHits(context);
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await expect(banner(page)).toBeVisible();
    await banner(page).getByRole('button', { name: choice }).click();
    await expect(banner(page)).toHaveCount(0);
    const decision = (await context.cookies()).find((cookie) => cookie.name === 'ss_cookieAllowed')?.value;
    expect(decision).toBe(choice === 'Accept' ? 'true' : 'false');
    await page.waitForLoadState('networkidle');
    await browse(page);
    await page.reload();
    await page.waitForLoadState('networkidle');
    // An accept does not bring tracking back under the absolute policy; neither does a second look.
    await expect(banner(page)).toHaveCount(0);
    expect(await trackingLeft(context), `tracking cookies in the jar after ${choice}`).toEqual([]);
    await expect.poll(() => answers.length).toBe(5);
    expect(answers.every((answer) => answer.recorded && answer.cookieless === true && !answer.sentVisitorCookie), JSON.stringify(answers)).toBe(true);
    hitsSeen += answers.length;
    await context.close();
  });
}

test('the server itself expires planted tracking cookies, with no script running', async ({ browser }) => {
  const context = await plantedContext(browser, false);
  const page = await context.newPage();
  for (const path of ['/', '/journal/lisbon-light']) {
    const response = await page.goto(`${base}${path}`);
    expect(response?.status()).toBe(200);
  }
  expect(await trackingLeft(context), 'tracking cookies the server did not expire').toEqual([]);
  await context.close();
});

test('the owner report counts every page view, all of them without cookies', async ({ request }) => {
  expect(hitsSeen, 'the browsing tests ran first and saw their page views').toBe(14);
  type Report = { days: { views: number; cookielessViews: number }[]; note: string };
  const report = async (): Promise<Report> => {
    const response = await request.get(`${base}/api/analytics/report`, { headers: { Authorization: `Bearer ${ownerToken}` } });
    expect(response.status()).toBe(200);
    return (await response.json()) as Report;
  };
  const total = (days: Report['days'], key: 'views' | 'cookielessViews') => days.reduce((sum, day) => sum + day[key], 0);
  // The census buffer is flushed about every second.
  await expect.poll(async () => total((await report()).days, 'views'), { timeout: 15_000 }).toBe(hitsSeen);
  const { days, note } = await report();
  expect(total(days, 'cookielessViews')).toBe(hitsSeen);
  expect(note).toContain('estimates');
});
