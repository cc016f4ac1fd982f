//! The map block on the demo's widgets page, in real Chromium at desktop and phone sizes, against
//! the local tile server the test server draws from: without JavaScript the static map (composed
//! by the server), the address and the new-window link; with JavaScript the static map stays and
//! nothing is asked of the tile server until the visitor accepts cookies or presses "Load map",
//! which says what loading shares; then the interactive map shows the local tiles and its marker.
//! axe-core finds nothing in either state.

import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { TILE_PORT } from '../playwright.config';
import { axeViolations, formatViolations } from './support/axe';
import { thirdPartyRequests, withoutPopup } from './support/third-parties';

const WIDGETS = '/widgets';
const TILE_HOST = `127.0.0.1:${TILE_PORT}`;
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;


async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

const mapBlock = (page: Page) => page.locator('#block-studio-map');

async function expectStaticMap(page: Page): Promise<void> {
  const image = mapBlock(page).getByRole('img', { name: 'Map of Terraluz Studio' });
  await image.scrollIntoViewIfNeeded();
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^\/api\/maps\/static\?lat=38\.7172&lng=-9\.1313&zoom=15&v=[0-9a-f]{12}$/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
  await expect(mapBlock(page).locator('address')).toContainText('Rua da Argila Azul 14');
  const link = mapBlock(page).getByRole('link', { name: 'Open in maps (opens in a new tab)' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('href', 'https://www.openstreetmap.org/?mlat=38.7172&mlon=-9.1313#map=15/38.7172/-9.1313');
  await expect(mapBlock(page)).toContainText('Test tiles');
}

async function newPage(browser: Browser, viewport: { width: number; height: number }, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await browser.newContext({ viewport, ...options });
  await withoutPopup(context);
  return { context, page: await context.newPage() };
}

for (const size of SIZES) {
  test.describe(`map on ${size.name}`, () => {
    test('without JavaScript: the static map, the address and the link, and no third party', async ({ browser, baseURL }) => {
      const { context, page } = await newPage(browser, size.viewport, { javaScriptEnabled: false });
      const third = thirdPartyRequests(page, baseURL);
      await page.goto(WIDGETS);
      await expectStaticMap(page);
      expect(third).toEqual([]);
      await context.close();
    });

    test('the tile server waits for accepted cookies, then the interactive map shows its tiles', async ({ browser, baseURL }) => {
      const { context, page } = await newPage(browser, size.viewport);
      const third = thirdPartyRequests(page, baseURL);
      await page.goto(WIDGETS);
      await expectStaticMap(page);
      const load = mapBlock(page).getByRole('button', { name: `Load map (shares your IP address with ${TILE_HOST})` });
      await expect(load).toBeVisible();
      await expect(mapBlock(page)).toHaveAttribute('data-map-state', 'static');
      await expectNoViolations(page, `${WIDGETS} before consent (${size.name})`);
      expect(third).toEqual([]);

      await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
      await expect(mapBlock(page)).toHaveAttribute('data-map-state', 'interactive');
      const map = mapBlock(page).getByRole('region', { name: 'Interactive map of Terraluz Studio' });
      await expect(map).toBeVisible();
      await expect(map.locator('img.leaflet-tile-loaded').first()).toBeVisible();
      await expect(map.getByRole('button', { name: 'Marker: Terraluz Studio' })).toBeVisible();
      await expect(mapBlock(page).getByRole('img', { name: 'Map of Terraluz Studio' })).toBeHidden();
      await expect(load).toHaveCount(0);
      expect(third.length).toBeGreaterThan(0);
      expect(third.every((url) => url.startsWith(`http://${TILE_HOST}/tiles/`)), third.join('\n')).toBe(true);
      await expectNoViolations(page, `${WIDGETS} with the interactive map (${size.name})`);
      await context.close();
    });

    test('a visitor who declined cookies loads the map with the button', async ({ browser, baseURL }) => {
      const { context, page } = await newPage(browser, size.viewport);
      await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: baseURL ?? '' }]);
      const third = thirdPartyRequests(page, baseURL);
      await page.goto(WIDGETS);
      await expectStaticMap(page);
      expect(third).toEqual([]);
      // The map library's chunk is held back, so the loading spinner can be seen while it waits.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/leaflet-map-[\w-]+\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await mapBlock(page).getByRole('button', { name: /^Load map/ }).click();
      await expect(mapBlock(page)).toHaveAttribute('data-map-state', 'loading');
      await expect(mapBlock(page).getByRole('status')).toHaveText('Loading the map');
      await expect(mapBlock(page).locator('[data-map-canvas]')).toHaveAttribute('aria-busy', 'true');
      await expectNoViolations(page, `${WIDGETS} with the map loading (${size.name})`);
      release();
      await expect(mapBlock(page).locator('img.leaflet-tile-loaded').first()).toBeVisible();
      await expect(mapBlock(page).getByRole('status')).toHaveCount(0);
      expect(third.every((url) => url.startsWith(`http://${TILE_HOST}/tiles/`))).toBe(true);
      await context.close();
    });
  });
}
