//! The signed-in owner's tools in real Chromium against the real server: two-step verification
//! turned on at /config/ with a code computed here from the shown secret, then signing in with
//! it; the overlays manager's previews, which record no consent, send no census and keep the
//! visitor's popup record; the admin broadcast channel and mouse tracking, which a visitor's
//! page never starts, and a logout in one tab reaching the admin's other tab; the admin's
//! /config/ panel fed by that channel, which a reporting owner never gets. axe-core on every
//! screen.

import { createHmac } from 'node:crypto';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { ownerCli, PASSWORD, signIn } from './support/owner-cli';

test.describe.configure({ mode: 'serial' });

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 6238's code (SHA-1, six digits, 30-second steps) of a base32 secret at `unixSeconds`. */
function totp(secret: string, unixSeconds: number): string {
  let bits = '';
  for (const char of secret.replace(/=+$/, '')) bits += BASE32.indexOf(char).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

test('the RFC 6238 code of this test matches the standard vector', () => {
  // "12345678901234567890" in base32, at 59 s: 94287082 in eight digits.
  expect(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59)).toBe('287082');
});

test('an owner turns on two-step verification at /config/ and then signs in with a code', async ({ page }, info) => {
  ownerCli(info, ['add', 'tess@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
  await signIn(page, 'tess@example.com');
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await expect(section).toContainText('Off.');
  await section.getByRole('button', { name: 'Turn on two-step verification' }).click();
  await expect(section.getByRole('img', { name: /QR code for your authenticator app/ })).toBeVisible();
  const secret = (await section.locator('.owner-totp-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoViolations(page, 'the first screen with a secret to confirm');

  // A wrong code leaves it off and says why.
  const code = totp(secret, Date.now() / 1000);
  await section.getByLabel('Six-digit code').fill(code === '000000' ? '000001' : '000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('alert')).toHaveText('The code is incorrect or has been used already.');
  await expectNoViolations(page, 'the first screen with a refused code');
  await page.getByRole('region', { name: 'Two-step verification' }).getByLabel('Six-digit code').fill(totp(secret, Date.now() / 1000));
  await page.getByRole('region', { name: 'Two-step verification' }).getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('region', { name: 'Two-step verification' })).toContainText('On: signing in asks for a code');
  await expectNoViolations(page, 'the first screen with two-step verification on');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('dialog', { name: 'Logout Successful' })).toBeVisible();
  await page.goto('/config/');
  await page.getByLabel('Email').fill('tess@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Enter the six-digit code from your authenticator app.');
  // The confirming code was spent; the next step's code is within the server's one step of skew.
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Two-factor code (if turned on)').fill(totp(secret, Date.now() / 1000 + 30));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Signed in as tess@example.com')).toBeVisible();
});

/** Records, from before any script of the page runs, broadcast channels opened and pointer-move listeners added. */
async function watchOwnerFeatures(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen = { channels: [] as string[], pointerMoves: 0 };
    (window as unknown as { __ownerFeatures: typeof seen }).__ownerFeatures = seen;
    const Original = window.BroadcastChannel;
    window.BroadcastChannel = class extends Original {
      constructor(name: string) {
        super(name);
        seen.channels.push(name);
      }
    };
    const add = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (this: EventTarget, type: string, ...rest: unknown[]) {
      // Mouse tracking listens on the document; widgets' own listeners (a tooltip's target) do not count.
      if (type === 'pointermove' && this === document) seen.pointerMoves += 1;
      return (add as (...args: unknown[]) => void).call(this, type, ...rest);
    } as typeof add;
  });
}

async function ownerFeatures(page: Page): Promise<{ channels: string[]; pointerMoves: number }> {
  return page.evaluate(() => (window as unknown as { __ownerFeatures: { channels: string[]; pointerMoves: number } }).__ownerFeatures);
}

test("a visitor's page opens no broadcast channel, tracks no mouse and loads no owner tools", async ({ page, context, baseURL }) => {
  await watchOwnerFeatures(context);
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'true', url: baseURL ?? '' }]);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/');
  await page.mouse.move(200, 200);
  await page.mouse.move(300, 260);
  await page.waitForLoadState('networkidle');
  expect(await ownerFeatures(page)).toEqual({ channels: [], pointerMoves: 0 });
  expect(scripts.filter((url) => /overlays-manager|admin-channel|mouse-tracking|announcement-bar/.test(url))).toEqual([]);
  await expect(page.getByRole('complementary', { name: 'Overlays manager' })).toHaveCount(0);
});

test('the overlays manager previews the banner and the popup without recording anything', async ({ page, context, baseURL }, info) => {
  ownerCli(info, ['add', 'olive@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
  // A visitor who answered the banner and closed the popup long ago: the page shows neither.
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: baseURL ?? '' }]);
  const record = JSON.stringify({ 'date-closed': 1_000, version: 1, submitted: true });
  await context.addInitScript((kept) => localStorage.setItem('squarespace-popup-overlay', kept), record);
  await signIn(page, 'olive@example.com');
  const calls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/(consent|census)/.test(request.url())) calls.push(request.url());
  });
  await page.goto('/');
  const manager = page.getByRole('complementary', { name: 'Overlays manager' });
  const toggle = manager.getByRole('button', { name: 'Overlays (2)' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expectNoViolations(page, 'the live page with the overlays manager open');
  // Escape closes the list first, through the Escape registry, and stays on the page.
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page).toHaveURL(/\/$/);

  await toggle.click();
  await manager.getByRole('button', { name: 'Preview cookie banner' }).click();
  const banner = page.getByRole('dialog', { name: 'Cookie banner preview' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('Preview: nothing you do here is saved or counted.');
  await expectNoViolations(page, 'the cookie banner preview');
  await banner.getByRole('button', { name: 'Accept' }).click();
  await expect(banner).toHaveCount(0);

  await toggle.click();
  await manager.getByRole('button', { name: 'Preview popup overlay' }).click();
  const popup = page.locator('dialog[data-overlay-preview]');
  await expect(popup).toBeVisible();
  await expect(popup).toContainText('Studio letters');
  await expectNoViolations(page, 'the popup overlay preview');
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(page).toHaveURL(/\/$/);

  const cookies = await context.cookies();
  expect(cookies.find((cookie) => cookie.name === 'ss_cookieAllowed')?.value).toBe('false');
  expect(await page.evaluate(() => localStorage.getItem('squarespace-popup-overlay'))).toBe(record);
  expect(calls).toEqual([]);
});

test("an admin's /config/ lists the page views and clicks of the admin's other tabs, with no request; a reporting owner gets no channel", async ({
  page,
  context,
  baseURL,
}, info) => {
  ownerCli(info, ['add', 'tina@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
  ownerCli(info, ['add', 'rex@example.com', '--role', 'reporting', '--password-stdin'], PASSWORD);
  await watchOwnerFeatures(context);
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: baseURL ?? '' }]);
  await signIn(page, 'tina@example.com');
  const panel = page.getByRole('region', { name: 'Activity in your open tabs' });
  await expect(panel).toBeVisible();
  const log = panel.getByRole('log');
  await expect.poll(async () => (await ownerFeatures(page)).channels).toEqual(['vitrine-admin']);
  await page.waitForLoadState('networkidle');
  await expectNoViolations(page, 'the tab activity panel, empty');
  // From here on, the owner area asks the server for nothing: the events come over the channel.
  const requests: string[] = [];
  page.on('request', (request) => {
    if (request.frame() === page.mainFrame()) requests.push(request.url());
  });

  const other = await context.newPage();
  await other.goto('/shop');
  await expect(other.getByRole('complementary', { name: 'Owner tools' })).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: /Viewed .* at \/shop$/ })).toHaveCount(1);
  // The site's popup overlay may be open (the rest of the page inert): the click is dispatched.
  await other.getByRole('link', { name: 'About', exact: true }).filter({ visible: true }).first().dispatchEvent('click');
  await expect(other).toHaveURL(/\/about$/);
  await expect(log.getByRole('listitem').first()).toContainText(/Viewed .* at \/about$/);
  await expect(log.getByRole('listitem').filter({ hasText: 'Clicked “About” on /shop' })).toHaveCount(1);
  expect(requests).toEqual([]);
  await expectNoViolations(page, 'the tab activity panel with events');
  await other.close();

  // A reporting owner's /config/ has no panel and opens no channel, not even in the preview.
  await page.getByRole('button', { name: 'Log out' }).click();
  await signIn(page, 'rex@example.com');
  await expect(page.getByTitle('Preview of your site')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { name: 'Activity in your open tabs' })).toHaveCount(0);
  for (const frame of page.frames()) {
    const seen = await frame.evaluate(() => (window as unknown as { __ownerFeatures: { channels: string[] } }).__ownerFeatures.channels);
    expect(seen, frame.url()).toEqual([]);
  }
});

test("an admin's tabs share a channel and mouse tracking runs; a logout in one tab signs the other out", async ({ page, context, baseURL }) => {
  await watchOwnerFeatures(context);
  // The banner answered and the popup closed long ago: an open popup would take the Escape
  // key for itself, and Shift+Escape would close it instead of logging out.
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: baseURL ?? '' }]);
  const closedPopup = JSON.stringify({ 'date-closed': 1_000, version: 1, submitted: true });
  await context.addInitScript((kept) => localStorage.setItem('squarespace-popup-overlay', kept), closedPopup);
  await signIn(page, 'olive@example.com');
  await page.goto('/');
  await expect(page.getByRole('complementary', { name: 'Owner tools' })).toBeVisible();
  await expect.poll(async () => (await ownerFeatures(page)).channels).toEqual(['vitrine-admin']);
  expect((await ownerFeatures(page)).pointerMoves).toBeGreaterThan(0);

  const other = await context.newPage();
  await other.goto('/shop');
  await expect(other.getByRole('complementary', { name: 'Owner tools' })).toBeVisible();
  await expect.poll(async () => (await ownerFeatures(other)).channels).toEqual(['vitrine-admin']);
  await page.keyboard.press('Shift+Escape');
  await expect(page.getByRole('dialog', { name: 'Logout Successful' })).toBeVisible();
  // The other tab reloads as the visitor's page.
  await expect(other.getByRole('complementary', { name: 'Owner tools' })).toHaveCount(0);
  await expect(other).toHaveURL(/\/shop$/);
  await expect.poll(async () => (await ownerFeatures(other)).channels).toEqual([]);
});
