//! The display widgets on the demo's widgets page, in real Chromium at desktop and phone sizes:
//! the marquee's pause control and reduced motion, text effects that play once visible, the
//! tooltip by hover, focus and Escape, every way to close each popup, the overlay coordinator
//! with the cookie banner and the popup overlay, axe with each widget open, and no third-party
//! request.

import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { recordLayoutShifts, totalLayoutShift } from './support/layout-shifts';
import { thirdPartyRequests, withoutPopup } from './support/third-parties';
import { POPUP_INFORMATION_AUTO_HIDE_MS } from '../src/generated/widget-constants';

const WIDGETS = '/widgets';
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** Answers the banner and keeps the site's popup overlay away, so a test meets one widget at a time. */
async function quietPage(context: BrowserContext, baseURL: string | undefined): Promise<void> {
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: baseURL ?? '' }]);
  await withoutPopup(context);
}

const marquee = (page: Page, id: string) => page.locator(`#block-${id}`);
const transformOf = (page: Page, id: string) =>
  marquee(page, id).locator('.marquee__track').evaluate((track) => getComputedStyle(track).transform);

async function expectNoViolations(page: Page, where: string, options: { inThePage?: boolean } = {}): Promise<void> {
  const violations = await axeViolations(page, options);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test.beforeEach(async ({ context, baseURL }) => {
      await quietPage(context, baseURL);
    });

    test('the marquee runs, pauses with its control, and the copies stay hidden', async ({ page, baseURL }) => {
      const outside = thirdPartyRequests(page, baseURL);
      await page.goto(WIDGETS);
      const band = marquee(page, 'kiln-news');
      await expect(band).toHaveAttribute('data-marquee-state', 'running');
      // It moves.
      const first = await transformOf(page, 'kiln-news');
      await expect.poll(() => transformOf(page, 'kiln-news')).not.toBe(first);
      // The copies are hidden from assistive technology and cannot take focus.
      const copies = band.locator('[data-marquee-copy]');
      expect(await copies.count()).toBeGreaterThan(0);
      for (const copy of await copies.all()) {
        await expect(copy).toHaveAttribute('aria-hidden', 'true');
        await expect(copy).toHaveAttribute('inert', '');
      }
      await expect(band.getByText('New glazes out of the kiln every Friday')).toHaveCount(await copies.count() + 1);
      // The pause control stops it, by mouse or keyboard, and starts it again.
      const control = band.getByRole('button', { name: 'Pause the moving text' });
      await control.click();
      await expect(band).toHaveAttribute('data-marquee-state', 'paused');
      const paused = await transformOf(page, 'kiln-news');
      await page.waitForTimeout(300);
      expect(await transformOf(page, 'kiln-news')).toBe(paused);
      const play = band.getByRole('button', { name: 'Play the moving text' });
      await play.focus();
      await page.keyboard.press('Enter');
      await expect(band).toHaveAttribute('data-marquee-state', 'running');
      await expectNoViolations(page, `${WIDGETS} with the marquee running`);
      expect(outside).toEqual([]);
    });

    test('hover pauses only the marquee that asks for it', async ({ page }) => {
      test.skip(size.name === 'phone', 'a phone has no hover');
      await page.goto(WIDGETS);
      await marquee(page, 'kiln-news').hover();
      await expect(marquee(page, 'kiln-news')).toHaveAttribute('data-marquee-state', 'running');
      // The band itself, not its moving track, which never holds still long enough to hover.
      await marquee(page, 'wavy-news').locator('[data-marquee]').hover({ position: { x: 40, y: 10 } });
      await expect(marquee(page, 'wavy-news')).toHaveAttribute('data-marquee-state', 'hovered');
      await page.mouse.move(0, 0);
      await expect(marquee(page, 'wavy-news')).toHaveAttribute('data-marquee-state', 'running');
    });

    test('reduced motion stops the marquee and keeps text effects drawn; it runs again when that changes', async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(WIDGETS);
      const band = marquee(page, 'kiln-news');
      await expect(band).toHaveAttribute('data-marquee-state', 'reduced-motion');
      await expect(band.getByRole('button', { name: /the moving text/ })).toBeHidden();
      expect(await transformOf(page, 'kiln-news')).toBe('none');
      await expect(page.locator('#block-widgets-title')).toHaveAttribute('data-text-effect-state', 'static');
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await expect(band).toHaveAttribute('data-marquee-state', 'running');
    });

    test('the marquee starting moves nothing below it, and a still marquee shows its whole text', async ({ page }) => {
      await recordLayoutShifts(page);
      await page.goto(WIDGETS);
      const band = marquee(page, 'kiln-news');
      await expect(band).toHaveAttribute('data-marquee-state', 'running');
      expect(await totalLayoutShift(page)).toBeLessThan(0.005);

      await page.emulateMedia({ reducedMotion: 'reduce' });
      await expect(band).toHaveAttribute('data-marquee-state', 'reduced-motion');
      const text = band.locator('.marquee__text').first();
      // Nothing is cut off: the text fits the band's width, over as many lines as it takes.
      const fits = await text.evaluate((element) => {
        const bandBox = element.closest('[data-marquee]')!.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return box.left >= bandBox.left - 1 && box.right <= bandBox.right + 1 && element.scrollWidth <= element.clientWidth + 1;
      });
      expect(fits).toBe(true);
      await expect(band.locator('[data-marquee-copy]').first()).toBeHidden();
    });

    test('a text effect waits out of view and plays once visible', async ({ page }) => {
      await page.goto(WIDGETS);
      const effect = page.locator('#block-effect-double');
      await expect(effect).toHaveAttribute('data-island-state', /pending|mounted/);
      // The title is in view: it plays (no sooner than 250 ms after ready) and ends drawn.
      await expect(page.locator('#block-widgets-title')).toHaveAttribute('data-text-effect-state', 'done');
      await effect.scrollIntoViewIfNeeded();
      await expect(effect).toHaveAttribute('data-text-effect-state', /playing|done/);
      await expect(effect).toHaveAttribute('data-text-effect-state', 'done');
      // Drawn in the end: every stroke's dash offset back at 0.
      const offsets = await effect.locator('path').evaluateAll((paths) => paths.map((path) => getComputedStyle(path).strokeDashoffset));
      expect(offsets.every((offset) => parseFloat(offset) === 0)).toBe(true);
      // It was redrawn once web fonts were ready.
      await expect(effect).toHaveAttribute('data-text-effect-redraws', /[1-9]/);
      await expectNoViolations(page, `${WIDGETS} with the text effects drawn`);
    });

    test('the tooltip shows on hover and on keyboard focus, and Escape dismisses it', async ({ page }) => {
      await page.goto(WIDGETS);
      const button = page.getByRole('link', { name: 'What is a second?' });
      const tip = page.getByRole('tooltip');
      await expect(page.locator('#block-hint-button')).toHaveAttribute('data-island-state', 'mounted');
      if (size.name === 'desktop') {
        await button.hover();
        await expect(tip).toBeVisible({ timeout: 3000 });
        await page.mouse.move(0, 0);
        await expect(tip).toBeHidden();
      }
      await button.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await expect(button).toBeFocused();
      await expect(tip).toBeVisible();
      await expect(tip).toHaveText('A piece with a small flaw from the kiln, sold at a lower price.');
      // Inside the viewport's 20 px margins.
      const box = (await tip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(20);
      expect(box.x + box.width).toBeLessThanOrEqual(size.viewport.width - 20);
      await expectNoViolations(page, `${WIDGETS} with the tooltip open`);
      await page.keyboard.press('Escape');
      await expect(tip).toBeHidden();
      // Focus stays on the button.
      await expect(button).toBeFocused();
    });

    test('each popup closes every way the spec lists', async ({ page, baseURL }) => {
      const outside = thirdPartyRequests(page, baseURL);
      // The page's timers run on a clock the test can hold: the information popup's 2000 ms
      // must not run out while its text and accessibility are checked on a busy machine.
      await page.clock.install();
      await page.goto(WIDGETS);
      const dialog = page.getByRole('alertdialog');
      await expect(page.locator('#block-confirm-button')).toHaveAttribute('data-island-state', 'mounted');

      // Confirmation: reject stays, Escape stays, an overlay click stays, confirm follows the link.
      const leave = page.getByRole('link', { name: 'Leave for the shop' });
      await leave.click();
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleName('Leave this page?');
      await expectNoViolations(page, `${WIDGETS} with a confirmation popup open`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`${WIDGETS}$`));
      await expect(leave).toBeFocused();

      await leave.click();
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(leave).toBeFocused();

      await leave.click();
      await expect(dialog).toBeVisible();
      // The overlay is the dialog's backdrop, outside its panel: the page's top-left corner.
      await page.mouse.click(5, 5);
      await expect(dialog).toBeHidden();

      // Alert: its one button.
      await page.getByRole('link', { name: 'Read the care note' }).click();
      await expect(page.getByRole('alertdialog', { name: 'Handle with care' })).toBeVisible();
      await expectNoViolations(page, `${WIDGETS} with an alert popup open`);
      await page.getByRole('button', { name: 'OK' }).click();
      await expect(page.getByRole('alertdialog')).toBeHidden();

      // Information: hides by itself after 2000 ms. The clock stands still while the open
      // popup is checked, then runs those 2000 ms.
      await page.clock.pauseAt(Date.now() + 1000);
      await page.getByRole('link', { name: 'Studio hours' }).click();
      const info = page.getByRole('dialog', { name: 'Studio hours' });
      await expect(info).toBeVisible();
      await expect(info).toContainText('We are open Tuesday to Saturday');
      // axe waits on the page's timers: the clock moves a millisecond at a time until it is
      // done, well inside the popup's 2000 ms. axe runs in the page alone: the blank page it
      // otherwise opens and closes would close under a tick of the context's clock.
      // Its outcome is kept as a value until the loop ends: a failure found meanwhile is
      // reported as itself, not as the page closing under the loop.
      let axeDone = false;
      const axeChecked = expectNoViolations(page, `${WIDGETS} with an information popup open`, { inThePage: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      void axeChecked.finally(() => {
        axeDone = true;
      });
      let held = 0;
      while (!axeDone) {
        await page.clock.runFor(1);
        held += 1;
      }
      const axeFailure = await axeChecked;
      if (axeFailure !== undefined) throw axeFailure;
      expect(held).toBeLessThan(POPUP_INFORMATION_AUTO_HIDE_MS / 2);
      await page.clock.runFor(POPUP_INFORMATION_AUTO_HIDE_MS - 1 - held);
      await expect(info).toBeVisible();
      await page.clock.runFor(1);
      await page.clock.resume();
      await expect(info).toBeHidden();

      await leave.click();
      await dialog.getByRole('button', { name: 'OK' }).click();
      await expect(page).toHaveURL(/\/shop$/);
      expect(outside).toEqual([]);
    });
  });
}

test.describe('the overlay coordinator on a real page', () => {
  test('the banner comes first: the popup overlay waits for the answer, a popup opened over the overlay sends it back', async ({ page }) => {
    // No consent cookie and no popup record: the banner shows, and the popup overlay wants to.
    await page.goto(WIDGETS);
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    const overlay = page.getByRole('dialog', { name: 'Studio letters' });
    await expect(banner).toBeVisible();
    await expect(overlay).toBeHidden();
    // A popup the visitor asks for opens even while the banner waits; the page behind is inert.
    await page.getByRole('link', { name: 'Read the care note' }).click();
    const alert = page.getByRole('alertdialog', { name: 'Handle with care' });
    await expect(alert).toBeVisible();
    await page.getByRole('button', { name: 'OK' }).click();
    await expect(alert).toBeHidden();
    // The answer lets the popup overlay through.
    await banner.getByRole('button', { name: 'Accept' }).click();
    await expect(overlay).toBeVisible();
    await expect(page.locator('main')).toHaveAttribute('inert', '');
    await expectNoViolations(page, `${WIDGETS} with the popup overlay open`);
    // Escape closes the topmost, and only it.
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    await expect(page.locator('main')).not.toHaveAttribute('inert', '');
  });
});

test('after a logout the page says so, then the notice hides by itself', async ({ page }) => {
  await page.goto('/?logout=true');
  const notice = page.getByRole('dialog', { name: 'Logout Successful' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('You have been successfully logged out.');
  await expect(notice).toBeHidden({ timeout: 4000 });
});
