//! Responsive images as a visitor's browser meets them: on the About page, a phone asks for a
//! small copy of a 3200 px photograph and a desktop window for a wider one, both as WebP, and
//! neither downloads the camera original; and on a phone no page's images or header move once
//! they have loaded.

import { expect, test, type Page } from '@playwright/test';
import { recordLayoutShifts, totalLayoutShift } from './support/layout-shifts';

const PAGE = '/about';
const PHOTO = 'studio-tiles-large';

/** The widths (`format=NNNw`) of every request for the photograph while `visit` runs. */
async function photoRequests(
  page: Page,
  visit: () => Promise<void>,
): Promise<{ widths: number[]; types: string[]; versions: (string | null)[]; caching: string[] }> {
  const widths: number[] = [];
  const types: string[] = [];
  const versions: (string | null)[] = [];
  const caching: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.includes(PHOTO)) return;
    const format = url.searchParams.get('format');
    widths.push(format ? Number.parseInt(format, 10) : Number.POSITIVE_INFINITY);
    types.push(response.headers()['content-type'] ?? '');
    versions.push(url.searchParams.get('v'));
    caching.push(response.headers()['cache-control'] ?? '');
  });
  await visit();
  return { widths, types, versions, caching };
}

async function showPhoto(page: Page): Promise<void> {
  await page.goto(PAGE);
  const photo = page.locator(`img[src*="${PHOTO}"]`);
  await photo.scrollIntoViewIfNeeded();
  await expect
    .poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

  test('the photograph comes as a small WebP copy, never the original', async ({ page }) => {
    const { widths, types } = await photoRequests(page, () => showPhoto(page));
    expect(widths.length).toBeGreaterThan(0);
    // 390 CSS pixels at 2x need at most 780 device pixels: the 750w or 1000w copy.
    for (const width of widths) expect(width).toBeLessThanOrEqual(1000);
    for (const type of types) expect(type).toBe('image/webp');
  });

  test("the copy names the photograph's version, so the browser keeps it for a year", async ({ page }) => {
    const { versions, caching } = await photoRequests(page, () => showPhoto(page));
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(version).toMatch(/^[0-9a-f]{16}$/);
    for (const header of caching) expect(header).toBe('public, max-age=31536000, immutable');
  });

  // The cart indicator fills in its count after load, a shift of about 0.0002 that no one
  // sees; anything an image or the header's logo moves is far above the bound.
  for (const path of ['/', '/about', '/gallery', '/gallery-layouts', '/shop/wheel-throwing-workshop']) {
    test(`${path} does not shift as its images load`, async ({ page }) => {
      await recordLayoutShifts(page);
      await page.goto(path);
      await page.waitForLoadState('load');
      // The first request for each width resizes the original, which on a machine busy
      // compiling can take longer than the default poll.
      await expect
        .poll(() => page.evaluate(() => Array.from(document.images).every((img) => img.loading === 'lazy' || img.complete)), {
          timeout: 40_000,
        })
        .toBe(true);
      await page.waitForTimeout(500);
      expect(await totalLayoutShift(page)).toBeLessThan(0.005);
    });
  }
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });

  test('the photograph comes wider than on a phone, still not the original', async ({ page }) => {
    const { widths } = await photoRequests(page, () => showPhoto(page));
    expect(widths.length).toBeGreaterThan(0);
    for (const width of widths) {
      expect(width).toBeGreaterThan(1000);
      expect(width).toBeLessThanOrEqual(2500);
    }
  });
});
