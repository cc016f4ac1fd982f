//! The site inside the app, in real Chromium: the simulated app (the shell's own bootstrap and
//! handler) answers info and dismiss with ids and the spec's errors, the recorded envelopes
//! replay as the shell's jest tests replay them, frames cannot reach the app, the mobile-app
//! web platform's dismiss navigates back, the page view carries the native-app flag, and axe
//! finds nothing wrong with the native-app page.

import { expect, test, type Page } from '@playwright/test';
import fixture from '../../mobile-shell/contract/envelopes.json' with { type: 'json' };
import { axeViolations, formatViolations } from './support/axe';
import { installSimulatedApp } from './support/simulated-app';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

interface PageBridge {
  info(report: unknown): Promise<unknown>;
  dismiss(payload?: { backUrl?: string }): Promise<boolean>;
  call(name: string, payload: unknown): Promise<unknown>;
}

function origin(page: Page): string {
  return new URL(page.url()).origin;
}

/** Runs one bridge call in the page; the outcome as `{resolved}` or `{rejected: message}`. */
async function callInPage(page: Page, name: string, payload: unknown): Promise<{ resolved?: unknown; rejected?: string }> {
  await page.waitForFunction(() => 'VitrineBridge' in window);
  return page.evaluate(
    ([n, p]) =>
      (window as unknown as { VitrineBridge: PageBridge }).VitrineBridge.call(n as string, p).then(
        (resolved) => ({ resolved }),
        (error: Error) => ({ rejected: error.message }),
      ),
    [name, payload] as const,
  );
}

test.describe('inside the app', () => {
  test('hides what the app provides, tells it the cart count, and answers info with the same id', async ({ page, baseURL }) => {
    const app = await installSimulatedApp(page, new URL(baseURL!).origin, { provides: ['header', 'cart'] });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-native-app-provides', 'header cart');
    await expect(page.locator('.site-header')).toBeHidden();
    await expect.poll(() => app.cartCount()).toBe(0);
    const first = app.heard[0]!;
    const request = JSON.parse(first.message) as { v: number; id: string; name: string; payload: Record<string, unknown> };
    expect(request).toMatchObject({ v: 1, name: 'info', payload: { pageType: expect.any(String), cartCount: 0, signedIn: false, locale: expect.any(String) } });
    expect(request.id).toMatch(ID);
    expect(JSON.parse(first.reply!)).toMatchObject({ v: 1, id: request.id, ok: true });
    const report = { pageType: 'Page', cartCount: 2, signedIn: false, locale: 'en-US', experiments: { hero: 'b' } };
    expect(await callInPage(page, 'info', report)).toEqual({ resolved: report });
    const ids = app.heard.map((entry) => (JSON.parse(entry.message) as { id: string }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("rejects an unknown name with the spec's text, and a platform the app cannot identify", async ({ page, baseURL }) => {
    await installSimulatedApp(page, new URL(baseURL!).origin);
    await page.goto('/');
    expect(await callInPage(page, 'share', {})).toEqual({ rejected: '[JS -> Native Bridge] share not found' });
    const other = await page.context().newPage();
    const app = await installSimulatedApp(other, new URL(baseURL!).origin, { platform: 'web' });
    await other.goto('/');
    expect(await callInPage(other, 'dismiss', {})).toEqual({ rejected: 'mobile platform not correctly identified' });
    expect(app.heard).toEqual([]);
  });

  test('dismiss closes the web view', async ({ page, baseURL }) => {
    const app = await installSimulatedApp(page, new URL(baseURL!).origin);
    await page.goto('/');
    expect(await callInPage(page, 'dismiss', { backUrl: '/' })).toEqual({ resolved: {} });
    expect(app.closed()).toBe(1);
  });

  test('replays the recorded envelopes through the page and the app', async ({ page, baseURL }) => {
    const app = await installSimulatedApp(page, new URL(baseURL!).origin);
    await page.goto('/');
    for (const exchange of fixture.exchanges) {
      const sameSite = new URL(exchange.from.url).origin === fixture.origin && exchange.from.topFrame;
      if (exchange.appPlatform !== 'android' || !sameSite) continue;
      // The recorded message, posted as the page's handler posts it: the app's reply is the recorded one.
      await page.evaluate((message) => {
        (window as unknown as { VitrineNativeApp: { postMessage(m: string): void } }).VitrineNativeApp.postMessage(message);
      }, exchange.request);
      await expect.poll(() => app.heard.some((entry) => entry.message === exchange.request), exchange.case).toBe(true);
      const heard = app.heard.find((entry) => entry.message === exchange.request)!;
      expect(heard.reply, exchange.case).toBe(exchange.reply);
      if (!('page' in exchange)) continue;
      // The same call made through the page's client ends as recorded (with an id of its own).
      const request = JSON.parse(exchange.request) as { name: string; payload: unknown };
      const outcome = await callInPage(page, request.name, request.payload);
      const expected = exchange.page as { resolves?: unknown; rejects?: string; refusedBeforeSending?: string };
      if (expected.resolves !== undefined) expect(outcome, exchange.case).toEqual({ resolved: expected.resolves });
      else if (expected.rejects !== undefined) expect(outcome, exchange.case).toEqual({ rejected: expected.rejects });
      // The page's own id is longer than the recorded one, so the byte count differs.
      else expect(outcome.rejected, exchange.case).toMatch(/^the bridge message is \d+ bytes, over the limit of 16384$/);
    }
    expect(app.heard.length).toBeGreaterThan(0);
  });

  test('a frame cannot reach the app', async ({ page, baseURL }) => {
    const app = await installSimulatedApp(page, new URL(baseURL!).origin);
    await page.goto('/');
    await expect.poll(() => app.heard.length).toBeGreaterThan(0);
    await page.evaluate(() => {
      const frame = document.createElement('iframe');
      frame.title = 'framed';
      frame.srcdoc = '<p>framed</p>';
      document.body.append(frame);
      return new Promise((resolve) => frame.addEventListener('load', resolve));
    });
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.evaluate(() => 'VitrineNativeApp' in window)).toBe(false);
    // Even posting straight to the web view's channel, the frame lacks the main frame's secret.
    await frame.evaluate(() =>
      (window as unknown as { ReactNativeWebView: { postMessage(m: string): Promise<void> } }).ReactNativeWebView.postMessage(
        '{"v":1,"id":"framed-1","name":"dismiss","payload":{}}',
      ),
    );
    const framed = app.heard.find((entry) => entry.message.includes('framed-1'));
    expect(framed).toMatchObject({ topFrame: false, reply: null, effect: { kind: 'none' } });
    expect(app.closed()).toBe(0);
  });

  test('the page view carries the native-app flag and the app declines consent for the page', async ({ page, baseURL }) => {
    await installSimulatedApp(page, new URL(baseURL!).origin, { consent: 'declined' });
    const hit = page.waitForRequest((request) => request.url().includes('/api/census/RecordHit'));
    await page.goto('/');
    const data = JSON.parse(new URLSearchParams((await hit).postData() ?? '').get('data') ?? '{}') as Record<string, unknown>;
    expect(data['nativeApp']).toBe(true);
    await expect(page.locator('[data-vitrine-cookie-banner]')).toHaveCount(0);
    expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('ss_cvr');
  });

  test('the native-app page has no accessibility violations', async ({ page, baseURL }) => {
    await installSimulatedApp(page, new URL(baseURL!).origin, { provides: ['header', 'cart'] });
    await page.goto('/');
    await page.waitForFunction(() => 'VitrineBridge' in window);
    const violations = await axeViolations(page);
    expect(violations, formatViolations('native-app home page', violations)).toEqual([]);
  });
});

test.describe('on the mobile-app web platform', () => {
  test('dismiss navigates to the back URL, on this site only', async ({ page }) => {
    await page.goto('/shop?platform=mobile-app');
    expect(await callInPage(page, 'info', {})).toEqual({ resolved: null });
    await Promise.all([page.waitForURL('**/about'), callInPage(page, 'dismiss', { backUrl: '/about' })]);
    await page.goto('/shop?platform=mobile-app');
    await Promise.all([page.waitForURL((url) => url.pathname === '/'), callInPage(page, 'dismiss', { backUrl: 'https://evil.example/' })]);
    expect(origin(page)).toBe(new URL(page.url()).origin);
  });
});

test('outside the app the bridge client is never loaded', async ({ page }) => {
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/mode-/.test(request.url())) chunks.push(request.url());
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => 'VitrineBridge' in window)).toBe(false);
  expect(chunks).toEqual([]);
});
