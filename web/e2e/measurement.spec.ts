//! Measurement in real Chromium on the demo site: no tracking cookie before a decision (the
//! server expires any the browser still holds), script errors reported and capped at 20 per page,
//! and Core Web Vitals sent to the performance collector's records call with their pageLoadId.

import { expect, test, type BrowserContext } from '@playwright/test';

const TRACKING = ['SS_MATTR', 'SS_MID', 'SS_lastvisit', 'user_segment', 'ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt'];

async function trackingCookies(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((cookie) => cookie.name).filter((name) => TRACKING.includes(name));
}

test('before a decision no tracking cookie is set, and old ones are expired', async ({ page, context, baseURL }) => {
  const url = new URL(baseURL ?? '');
  await context.addCookies(TRACKING.map((name) => ({ name, value: '1', domain: url.hostname, path: '/' })));
  await page.goto('/shop');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await trackingCookies(context), 'tracking cookies in the jar before any decision').toEqual([]);
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  expect(await trackingCookies(context)).toEqual([]);
});

test('script errors are reported, at most 20 per page', async ({ page }) => {
  const entries: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/events/RecordJavascriptErrors')) {
      entries.push(...(JSON.parse(request.postData() ?? '[]') as unknown[]));
    }
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  // Three bursts of 30 uncaught errors, each longer than the 1 s debounce apart.
  for (let burst = 0; burst < 3; burst += 1) {
    await page.evaluate((n) => {
      for (let i = 0; i < 30; i += 1) setTimeout(() => { throw new Error(`burst ${n} error ${i}`); }, 0);
    }, burst);
    await page.waitForTimeout(1_500);
  }
  await expect.poll(() => entries.length).toBe(20);
  const first = entries[0] as { event: string; data: { message: string; url: string } };
  expect(first.event).toBe('JavascriptError');
  expect(first.data.message).toContain('burst 0 error 0');
  await page.waitForTimeout(1_500);
  expect(entries.length).toBe(20);
});

test('Core Web Vitals reach the records call with the pageLoadId when the page is hidden, by XHR when beacons are refused', async ({ page, context }) => {
  const records: { pageLoadId: string; name: string; value: number; pagePath: string }[] = [];
  let pageLoadId = '';
  context.on('response', async (response) => {
    if (response.url().endsWith('/api/1/performance/settings')) {
      pageLoadId = ((await response.json()) as { pageLoadId: string }).pageLoadId;
    }
  });
  context.on('request', (request) => {
    if (request.url().includes('/api/1/performance/records')) {
      records.push(...(JSON.parse(request.postData() ?? '[]') as typeof records));
    }
  });
  // The browser refuses beacons here, so the records take the text/plain XHR path, which the
  // test can watch.
  await page.addInitScript(() => {
    Navigator.prototype.sendBeacon = () => false;
  });
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  // An interaction finalises LCP and gives INP something to measure.
  await page.mouse.click(5, 5);
  await page.waitForTimeout(300);
  // The page turns hidden (as when the visitor switches tabs or leaves): web-vitals reports its
  // final values and the collector sends them by beacon.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect.poll(() => records.map((record) => record.name)).toContain('LCP');
  const lcp = records.find((record) => record.name === 'LCP');
  expect(lcp?.pageLoadId).toBe(pageLoadId);
  expect(lcp?.pagePath).toBe('/about');
  expect(lcp?.value).toBeGreaterThan(0);
  expect(records.map((record) => record.name)).toContain('CLS');
});

test('button blocks send a render and a click to the census', async ({ page }) => {
  const events: { path: string; body: Record<string, unknown> }[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/census/button-')) events.push({ path, body: JSON.parse(request.postData() ?? '{}') as Record<string, unknown> });
  });
  await page.goto('/');
  await expect.poll(() => events.map((event) => event.path)).toContain('/api/census/button-render');
  await page.getByRole('link', { name: 'Visit the shop' }).click();
  await page.waitForURL('**/shop');
  await expect.poll(() => events.map((event) => event.path)).toContain('/api/census/button-click');
  const click = events.find((event) => event.path === '/api/census/button-click');
  expect(click?.body).toMatchObject({ buttonText: 'Visit the shop', size: 'large', alignment: 'left', newWindow: false, pagePath: '/' });
  // Undecided under OPT_IN: no visitor cookie travels with it.
  expect(click?.body).not.toHaveProperty('visitorCookie');
});
