//! The remaining content blocks on the demo's /blocks page, in real Chromium at desktop and
//! phone sizes: the menu's tabs by mouse and keyboard (all menus without JavaScript), the
//! calendar opening on the current month and its month links, the mobile information bar, the audio block's native players, the shapes, the embed that loads
//! only after consent and a click, the table-reservation widget that loads only after consent,
//! the owner's preview alert, the follow button that is a first-party link until consent and
//! whenever the platform's script fails, the narrow image block, axe-core with each block in use,
//! and the network log holding no third-party request before the visitor allows one.

import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { ownerCli, PASSWORD, signIn } from './support/owner-cli';
import { thirdPartyRequests, withoutPopup } from './support/third-parties';

const BLOCKS = '/blocks';
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A month as the calendar names it, e.g. 'May 2027'; `month` may run past December. */
function monthName(year: number, month: number): string {
  const date = new Date(Date.UTC(year, month, 1));
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

const PREVIEW_ALERT = 'Preview Only: Please log out of your provider account in order to use the reservation block.';

/** Answers the cookie banner with `choice` and keeps the site's popup overlay away. */
async function decided(context: BrowserContext, baseURL: string | undefined, choice: 'true' | 'false'): Promise<void> {
  await context.addCookies([{ name: 'ss_cookieAllowed', value: choice, url: baseURL ?? '' }]);
  await withoutPopup(context);
}

/** Answers the third parties locally, so the test needs no network and sees what was asked. */
async function fakeThirdParties(page: Page): Promise<void> {
  await page.route('https://www.openstreetmap.org/**', (route: Route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Map</title><p>A map of the neighbourhood</p>' }),
  );
  await page.route('https://www.opentable.com/**', (route: Route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: "document.currentScript.insertAdjacentHTML('afterend', '<p data-fake-widget>Booking form</p>');",
    }),
  );
  // The platform's script defines `twttr.widgets.load`, which draws its button in the link's place.
  await page.route('https://platform.twitter.com/**', (route: Route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: "window.twttr = { widgets: { load(root) { root.querySelector('a.twitter-follow-button').outerHTML = '<span data-fake-follow>Following</span>'; return Promise.resolve(); } } };",
    }),
  );
}

const FOLLOW_LINK = 'Follow @terraluz_studio on X (opens in a new tab)';

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('the menu is tabs by mouse and keyboard, and axe finds nothing', async ({ page, context, baseURL }) => {
      await decided(context, baseURL, 'false');
      await page.goto(BLOCKS);
      const menu = page.locator('#block-cafe-menu');
      await expect(menu).toHaveAttribute('data-island-state', 'mounted');
      const tabs = menu.getByRole('tab');
      await expect(tabs).toHaveText(['Breakfast', 'Lunch', 'Drinks']);
      await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
      await expect(menu.getByRole('tabpanel')).toHaveCount(1);
      await expect(menu.getByRole('tabpanel')).toContainText('Pastel de nata');
      // The arrows move the focus cyclically; Enter or Space selects (000 s4).
      await tabs.first().focus();
      await page.keyboard.press('ArrowLeft');
      await expect(tabs.nth(2)).toBeFocused();
      await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('Enter');
      await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
      await expect(menu.getByRole('tabpanel')).toContainText('Galão');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press(' ');
      await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
      await tabs.nth(1).click();
      await expect(menu.getByRole('tabpanel')).toContainText('Bacalhau salad');
      await expectNoViolations(page, `${BLOCKS} with the lunch menu (${size.name})`);
    });

    test('the calendar opens on the current month and moves between months by links, and the audio tracks are native players', async ({ page, context, baseURL }) => {
      await decided(context, baseURL, 'false');
      const outside = thirdPartyRequests(page, baseURL);
      await page.goto(BLOCKS);
      const calendar = page.locator('#block-events-calendar');
      // The server's clock and this one are the same machine's: the month in UTC.
      const now = new Date();
      const current = monthName(now.getUTCFullYear(), now.getUTCMonth());
      const next = monthName(now.getUTCFullYear(), now.getUTCMonth() + 1);
      await expect(calendar.getByRole('heading', { name: current })).toBeVisible();
      await expect(calendar.getByRole('heading', { level: 3 })).toHaveCount(1);
      const forward = calendar.getByRole('link', { name: `Next month (${next})` });
      if ((await forward.count()) > 0) {
        await forward.click();
        await expect(calendar.getByRole('heading', { name: next })).toBeVisible();
        await expect(calendar.getByRole('heading', { name: current })).toBeHidden();
        await calendar.getByRole('link', { name: `Previous month (${current})` }).click();
        await expect(calendar.getByRole('heading', { name: current })).toBeVisible();
      }
      // An event's month is one link away from anywhere in the grid.
      await page.goto(`${BLOCKS}#calendar-events-calendar-2027-04`);
      await expect(calendar.getByRole('heading', { name: 'April 2027' })).toBeVisible();
      await expect(calendar.getByRole('link', { name: 'Open studio: spring firing' })).toBeVisible();

      const audio = page.locator('#block-workshop-sounds');
      await audio.scrollIntoViewIfNeeded();
      await expect(audio).toHaveAttribute('data-island-state', 'mounted');
      const players = audio.locator('audio');
      await expect(players).toHaveCount(2);
      await expect(players.first()).toHaveAttribute('preload', 'none');
      await expect(page.locator('[data-shape-name="arched-window"]')).toHaveAttribute('data-drop-shadow', /"angle":45/);
      await expectNoViolations(page, `${BLOCKS} on another month (${size.name})`);
      expect(outside).toEqual([]);
    });

    test('nothing from a third party loads before consent; the embed then waits for a click', async ({ page, context, baseURL }) => {
      await withoutPopup(context);
      await fakeThirdParties(page);
      const outside = thirdPartyRequests(page, baseURL);
      await page.goto(BLOCKS);
      const embed = page.locator('#block-neighbourhood-map');
      const booking = page.locator('#block-cafe-booking');
      const follow = page.locator('#block-follow-studio');
      // Islands mount as their blocks near the viewport.
      await follow.scrollIntoViewIfNeeded();
      await expect(embed).toHaveAttribute('data-embed-state', 'blocked');
      await expect(booking).toHaveAttribute('data-reservation-state', 'waiting');
      await expect(follow).toHaveAttribute('data-follow-state', 'waiting');
      await expect(follow.getByRole('link', { name: FOLLOW_LINK })).toHaveAttribute('href', 'https://twitter.com/terraluz_studio');
      await expect(embed.getByRole('link', { name: /Open A map of the neighbourhood on www.openstreetmap.org/ })).toBeVisible();
      await expect(embed.getByRole('button')).toHaveCount(0);
      await expectNoViolations(page, `${BLOCKS} before consent (${size.name})`);
      expect(outside).toEqual([]);

      // Accepting cookies loads the booking widget, and offers the embed, which still waits for a click.
      await page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
      await expect(booking.locator('[data-fake-widget]')).toHaveText('Booking form');
      const theme = size.viewport.width > 900 ? 'theme=wide' : 'theme=standard';
      expect(outside.some((url) => url.startsWith('https://www.opentable.com/widget/reservation/loader?rid=412') && url.includes(theme))).toBe(true);
      // And the platform draws its follow button, from its one script.
      await expect(follow.locator('[data-fake-follow]')).toHaveText('Following');
      await expect(follow).toHaveAttribute('data-follow-state', 'loaded');
      expect(outside.filter((url) => url.startsWith('https://platform.twitter.com/'))).toEqual(['https://platform.twitter.com/widgets.js']);
      const load = embed.getByRole('button', { name: 'Load A map of the neighbourhood from www.openstreetmap.org' });
      await expect(load).toBeVisible();
      expect(outside.filter((url) => url.includes('openstreetmap'))).toEqual([]);
      await load.click();
      const frame = embed.frameLocator('iframe[title="A map of the neighbourhood"]');
      await expect(frame.getByText('A map of the neighbourhood')).toBeVisible();
      await expect(embed.locator('iframe')).toHaveAttribute('sandbox', /allow-scripts/);
      await expectNoViolations(page, `${BLOCKS} with the embed loaded (${size.name})`);
    });

    test("the follow button stays a link when the platform's script fails", async ({ page, context, baseURL }) => {
      await decided(context, baseURL, 'true');
      await page.route('https://platform.twitter.com/**', (route: Route) => route.abort('failed'));
      await page.route('https://www.opentable.com/**', (route: Route) => route.abort('failed'));
      await page.goto(BLOCKS);
      const follow = page.locator('#block-follow-studio');
      await follow.scrollIntoViewIfNeeded();
      await expect(follow).toHaveAttribute('data-follow-state', 'failed');
      await expect(follow.getByRole('link', { name: FOLLOW_LINK })).toBeVisible();
      await expectNoViolations(page, `${BLOCKS} with the follow button's script failed (${size.name})`);
    });

    test('the mobile information bar runs along the bottom of a phone and sits in the footer of a desktop', async ({ page, context, baseURL }) => {
      await decided(context, baseURL, 'false');
      await page.goto(BLOCKS);
      const bar = page.getByRole('complementary', { name: 'Visit or contact us' });
      await expect(bar.getByRole('link', { name: /^Call/ })).toHaveAttribute('href', 'tel:+351210000000');
      await expect(bar.getByRole('link', { name: /^Email/ })).toHaveAttribute('href', 'mailto:hello@terraluz.example');
      await expect(bar.getByRole('link', { name: /^Find us/ })).toHaveAttribute('target', '_blank');
      await expect(bar).toContainText('Tue–Sat 10–18');
      const position = await bar.evaluate((element) => getComputedStyle(element).position);
      if (size.viewport.width <= 1024) {
        // 1024 px or less (000 s9): fixed along the bottom, in view without scrolling.
        expect(position).toBe('fixed');
        await expect(bar).toBeInViewport();
        const box = (await bar.boundingBox())!;
        expect(Math.round(box.y + box.height)).toBe(size.viewport.height);
      } else {
        expect(position).toBe('static');
      }
      await expectNoViolations(page, `${BLOCKS} with the information bar (${size.name})`);
    });

    test('the narrow image block and the booking column follow their container widths', async ({ page, context, baseURL }) => {
      await decided(context, baseURL, 'false');
      await page.goto(BLOCKS);
      const caption = page.locator('#block-cafe-shelf .image-figure__caption');
      const size14 = await caption.evaluate((element) => getComputedStyle(element).fontSize);
      // Under 415 px of block width the caption is set smaller (000 s9); on a desktop it is not.
      expect(size14 === '14px').toBe(size.viewport.width < 415 + 48);
      const widget = page.locator('#block-cafe-booking [data-reservation-widget]');
      const direction = await widget.evaluate((element) => getComputedStyle(element).flexDirection);
      // 750 px or less (000 s4): the booking area is a column.
      expect(direction === 'column').toBe(size.viewport.width <= 800);
    });
  });
}

test('a signed-in owner sees the reservation block as a preview with the alert, which no visitor gets', async ({ page, browser, baseURL }, info) => {
  ownerCli(info, ['add', 'blocks-owner@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
  await signIn(page, 'blocks-owner@example.com');
  await page.goto(BLOCKS);
  const booking = page.locator('#block-cafe-booking');
  await expect(booking.getByRole('alert')).toHaveText(PREVIEW_ALERT);
  await expect(booking.locator('[data-reservation-widget]')).toHaveAttribute('inert', '');

  const visitor = await browser.newContext({ baseURL: baseURL ?? '' });
  const visitorPage = await visitor.newPage();
  const html = await (await visitorPage.request.get(BLOCKS)).text();
  expect(html).not.toContain('Preview Only');
  await visitorPage.goto(BLOCKS);
  await expect(visitorPage.locator('#block-cafe-booking').getByRole('alert')).toHaveCount(0);
  await visitor.close();
});
