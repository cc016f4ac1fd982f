//! Galleries, the lightbox and video on the demo's "Gallery layouts" page, at desktop and phone
//! sizes: every layout renders and moves by buttons, keys and swipes; the lightbox is a modal
//! dialog that traps focus and gives it back; itemId history round-trips; autoplay pauses on
//! hover and stays off with reduced motion; videos play one at a time and nothing reaches a
//! video provider before play; axe finds no violations.

import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { settlePage } from './support/site';

const PAGE = '/gallery-layouts';
const LAYOUTS = ['slideshow', 'strip', 'carousel', 'grid', 'autogrid', 'autocolumns', 'autorows', 'list', 'base'] as const;
const PROVIDERS = /youtube|youtu\.be|ytimg|vimeo/;

/** Every request to a video provider; the players themselves are answered locally with an empty page. */
async function providerRequests(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (PROVIDERS.test(new URL(request.url()).hostname)) seen.push(request.url());
  });
  await page.route(/^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
  );
  return seen;
}

/** Opens the page with the consent banner decided and the newsletter popup closed, islands mounted. */
async function open(page: Page, path = PAGE): Promise<void> {
  await page.goto(path);
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  if (await banner.isVisible()) await banner.getByRole('button', { name: 'Decline' }).click();
  const popup = page.getByRole('dialog', { name: 'Studio letters' });
  await popup.waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
  if (await popup.isVisible()) await page.keyboard.press('Escape');
  await expect(popup).toBeHidden();
  expect(await settlePage(page)).toEqual([]);
}

function gallery(page: Page, layout: (typeof LAYOUTS)[number]): Locator {
  return page.locator(`.gallery--${layout}`);
}

async function currentSlide(root: Locator): Promise<string | null> {
  return root.locator('.gallery__slide.is-current').first().getAttribute('data-slide-id');
}

/** A one-finger swipe of `dx` pixels over `target`, as touch events the island listens to. */
async function swipe(target: Locator, dx: number): Promise<void> {
  await target.evaluate(async (element, distance) => {
    const box = element.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const x0 = box.left + box.width / 2 - distance / 2;
    const touch = (x: number) => new Touch({ identifier: 1, target: element, clientX: x, clientY: y });
    element.dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(x0)], changedTouches: [touch(x0)] }));
    element.dispatchEvent(new TouchEvent('touchmove', { bubbles: true, touches: [touch(x0 + distance)], changedTouches: [touch(x0 + distance)] }));
    await new Promise((resolve) => setTimeout(resolve, 40));
    element.dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(x0 + distance)] }));
  }, dx);
}

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
]) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport, hasTouch: size.hasTouch ?? false, isMobile: size.isMobile ?? false });

    test('every layout renders, the movers move by buttons, keys and swipes, and axe is content', async ({ page }) => {
      const requests = await providerRequests(page);
      await open(page);
      for (const layout of LAYOUTS) {
        await expect(gallery(page, layout), layout).toBeVisible();
        // A slideshow shows only its current slide, which autoplay may have moved on from the first.
        await expect(gallery(page, layout).locator('.gallery__slide:not([inert])').first()).toBeVisible();
      }

      const slideshow = gallery(page, 'slideshow');
      // Autoplay would move it under the test; the pause control stops it.
      await slideshow.getByRole('button', { name: 'Pause slideshow' }).click();
      await expect(slideshow).toHaveAttribute('data-autoplay', 'paused');
      // On a slow machine autoplay may have moved before the pause: the pager brings the first back.
      if ((await currentSlide(slideshow)) !== 'slideshow-kiln-glow') {
        await page.waitForTimeout(1100);
        await slideshow.locator('.gallery__page').first().click();
        await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 1 of 7');
        await page.waitForTimeout(1100);
      }
      expect(await currentSlide(slideshow)).toBe('slideshow-kiln-glow');
      await slideshow.getByRole('button', { name: 'Next slide' }).click();
      await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7');
      await page.waitForTimeout(1100);
      await slideshow.getByRole('button', { name: 'Next slide' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 3 of 7');
      await page.waitForTimeout(1100);
      await page.keyboard.press('ArrowLeft');
      await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7');
      await page.waitForTimeout(1100);
      await swipe(slideshow.locator('.gallery__track'), -120);
      await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 3 of 7');
      await page.waitForTimeout(1100);
      await swipe(slideshow.locator('.gallery__track'), 120);
      await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7');

      const strip = gallery(page, 'strip');
      await strip.scrollIntoViewIfNeeded();
      await strip.getByRole('button', { name: 'Next slide' }).click();
      await expect(strip.locator('.gallery__status')).toHaveText('Slide 2 of 6');
      await expect(strip.locator('.gallery__page[aria-current="true"]')).toHaveAttribute('data-index', '1');
      await page.waitForTimeout(600);
      await swipe(strip.locator('.gallery__track'), -120);
      await expect(strip.locator('.gallery__status')).toHaveText('Slide 3 of 6');
      await page.waitForTimeout(600);
      await strip.locator('.gallery__page').nth(5).click();
      await expect(strip.locator('.gallery__status')).toHaveText('Slide 6 of 6');

      const carousel = gallery(page, 'carousel');
      await carousel.scrollIntoViewIfNeeded();
      const perRow = size.name === 'phone' ? 2 : 3;
      const groups = Math.ceil(6 / perRow);
      const previous = carousel.getByRole('button', { name: 'Previous slide' });
      const next = carousel.getByRole('button', { name: 'Next slide' });
      await expect(previous).toBeDisabled();
      await expect(carousel.locator('.gallery__slide.is-current')).toHaveCount(perRow);
      await next.click();
      await expect(carousel.locator('.gallery__status')).toHaveText(`Group 2 of ${groups}`);
      await page.waitForTimeout(1100);
      await next.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(1100);
      if (groups === 2) await expect(next).toBeDisabled();
      await swipe(carousel.locator('.gallery__track'), 120);
      await expect(carousel.locator('.gallery__status')).toHaveText(`Group ${groups - 1} of ${groups}`);

      const violations = await axeViolations(page);
      expect(violations, formatViolations(PAGE, violations)).toEqual([]);
      expect(requests).toEqual([]);
    });

    test('the lightbox opens by click and Enter, traps focus, closes by Escape and gives focus back', async ({ page }) => {
      await open(page);
      const grid = gallery(page, 'grid');
      const second = grid.locator('.gallery__link').nth(1);
      await second.scrollIntoViewIfNeeded();
      await second.click();
      const dialog = page.getByRole('dialog', { name: 'Picture viewer' });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('.lightbox__counter')).toHaveText('2 of 4');
      await expect(dialog.locator('img')).toHaveAttribute('src', '/media/gallery-glaze-drips.webp');
      await expect(dialog).toHaveClass(/lightbox--light/);
      // Focus starts inside and stays there through a full round of Tab and Shift+Tab.
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      for (let i = 0; i < 5; i += 1) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Shift+Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect(dialog.locator('.lightbox__counter')).toHaveText('3 of 4');

      const violations = await axeViolations(page);
      expect(violations, formatViolations(`${PAGE} with the lightbox open`, violations)).toEqual([]);

      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(second).toBeFocused();

      const first = grid.locator('.gallery__link').first();
      await first.focus();
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('.lightbox__counter')).toHaveText('1 of 4');
      if (size.name === 'phone') {
        // No loop on a phone: the first picture's previous control carries the disabled mark.
        await expect(dialog.getByRole('button', { name: 'Previous picture' })).toBeDisabled();
      } else {
        await dialog.getByRole('button', { name: 'Previous picture' }).click();
        await expect(dialog.locator('.lightbox__counter')).toHaveText('4 of 4');
      }
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await expect(first).toBeFocused();

      await first.focus();
      await page.keyboard.press('Space');
      await expect(dialog).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    });
  });
}

test.describe('the slider on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('draws its pictures at the default 2:1 and keeps the current thumbnail in the middle of its scrolling strip', async ({ page }) => {
    await open(page);
    const slider = gallery(page, 'strip');
    const picture = slider.locator('.gallery__slide.is-current img').first();
    const box = await picture.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.width / box!.height).toBeCloseTo(2, 1);

    const strip = slider.locator('.gallery__pager--thumbnails ol');
    const overflows = await strip.evaluate((list) => list.scrollWidth > list.clientWidth);
    expect(overflows).toBe(true);
    // The third of six thumbnails can sit in the middle of a phone-wide row; the last ones stop at its end.
    const target = 2;
    const current = slider.locator('.gallery__page[aria-current="true"]');
    for (let step = 1; step <= target; step += 1) {
      // A move is refused while the last one is still in motion (001 s2), so each waits for the one before.
      await slider.getByRole('button', { name: 'Next slide' }).click();
      await expect(current).toHaveAttribute('data-index', String(step));
      await page.waitForTimeout(600);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect
      .poll(async () => {
        const [thumb, row] = await Promise.all([current.boundingBox(), strip.boundingBox()]);
        return Math.abs(thumb!.x + thumb!.width / 2 - (row!.x + row!.width / 2));
      })
      .toBeLessThan(12);
  });
});

test.describe('without autoplay', () => {
  // Autoplay could move the slideshow on between the page settling and a click on Next, which
  // would make the address name a slide the test did not choose.
  test.use({ reducedMotion: 'reduce' });

  test('itemId history round-trips through the address', async ({ page }) => {
    await open(page);
    const slideshow = gallery(page, 'slideshow');
    await slideshow.getByRole('button', { name: 'Next slide' }).click();
    await expect(page).toHaveURL(/\/gallery-layouts\/\?itemId=slideshow-glaze-drips$/);
    await page.reload();
    await settlePage(page);
    await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7');
    expect(await currentSlide(slideshow)).toBe('slideshow-glaze-drips');

    await page.goto(`${PAGE}/?itemId=slideshow-moon-trio`);
    await settlePage(page);
    expect(await currentSlide(slideshow)).toBe('slideshow-moon-trio');
    await slideshow.getByRole('button', { name: 'Next slide' }).click();
    await expect(page).toHaveURL(/itemId=slideshow-throwing-rings$/);
    await page.goBack();
    await expect(page).toHaveURL(/itemId=slideshow-moon-trio$/);
    await page.waitForTimeout(1100);
    expect(await currentSlide(slideshow)).toBe('slideshow-moon-trio');
  });
});

test('autoplay advances, pauses on hover, and is off with reduced motion or nomotion=true', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await open(page);
  const slideshow = gallery(page, 'slideshow');
  await expect(slideshow).toHaveAttribute('data-autoplay', 'playing');
  await expect(slideshow.getByRole('button', { name: 'Pause slideshow' })).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7', { timeout: 6000 });
  await slideshow.hover();
  await expect(slideshow).toHaveAttribute('data-autoplay', 'paused');
  await page.waitForTimeout(4500);
  await expect(slideshow.locator('.gallery__status')).toHaveText('Slide 2 of 7');
  await page.mouse.move(0, 0);
  await expect(slideshow).toHaveAttribute('data-autoplay', 'playing');
  await page.close();

  const reduced = await browser.newPage({ reducedMotion: 'reduce' });
  await open(reduced);
  await expect(gallery(reduced, 'slideshow')).toHaveAttribute('data-autoplay', 'off');
  await expect(gallery(reduced, 'slideshow').locator('.gallery__autoplay')).toBeHidden();
  await reduced.close();

  const still = await browser.newPage();
  await open(still, `${PAGE}?nomotion=true`);
  await expect(gallery(still, 'slideshow')).toHaveAttribute('data-autoplay', 'off');
  await still.close();
});

test('a video plays on request, the others go back to their overlays, and nothing reaches a provider before', async ({ page }) => {
  const requests = await providerRequests(page);
  await open(page);
  expect(requests, 'requests to a video provider before play').toEqual([]);

  const block = page.locator('.video-block .video__frame');
  await block.scrollIntoViewIfNeeded();
  await block.getByRole('button', { name: /Play video: Glazing day/ }).click();
  const vimeo = block.locator('iframe.video__player');
  await expect(vimeo).toHaveAttribute('src', /^https:\/\/player\.vimeo\.com\/video\/76979871\?.*dnt=1/);
  await expect(vimeo).toHaveClass(/is-shown/);
  expect(requests.some((url) => url.startsWith('https://player.vimeo.com/'))).toBe(true);

  const slideshow = gallery(page, 'slideshow');
  await slideshow.scrollIntoViewIfNeeded();
  await slideshow.getByRole('button', { name: 'Pause slideshow' }).click();
  await slideshow.locator('.gallery__page').last().click();
  const slideVideo = slideshow.locator('.gallery__slide.is-current .video__link');
  await slideVideo.focus();
  await page.keyboard.press('Enter');
  await expect(slideshow.locator('iframe.video__player')).toHaveAttribute('src', /^https:\/\/www\.youtube-nocookie\.com\/embed\/Tz4Lx0CeRm8\?/);
  // Showing the slide's video returned the block's video to its overlay.
  await expect(vimeo).toHaveCount(0);
  await expect(block.getByRole('button', { name: /Play video: Glazing day/ })).toBeVisible();
  expect(requests.every((url) => /^https:\/\/(www\.youtube-nocookie\.com|player\.vimeo\.com)\//.test(url))).toBe(true);
});

test('without JavaScript every layout is there and the slideshow has a link per slide', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(PAGE);
  for (const layout of LAYOUTS) await expect(page.locator(`.gallery--${layout} .gallery__slide`).first()).toBeVisible();
  const links = page.locator('.gallery--slideshow .gallery__page');
  await expect(links).toHaveCount(7);
  await expect(links.first()).toHaveAttribute('href', /#.+-slideshow-kiln-glow$/);
  // The block's own options reach the page through its stylesheet: the slideshow's
  // imageAspectRatio of 75 draws 4:3, and the carousel keeps its 12 px gutter.
  const picture = await page.locator('.gallery--slideshow .gallery__slide img').first().boundingBox();
  expect(picture!.width / picture!.height).toBeCloseTo(4 / 3, 1);
  const gap = await page.locator('.gallery--carousel .gallery__track').evaluate((track) => getComputedStyle(track).columnGap);
  expect(gap).toBe('12px');
  await context.close();
});
