//! Without JavaScript the storefront still works: every navigation page opens with its heading, and accordion content can be read.

import { expect, test } from '@playwright/test';
import { aboutPage } from './support/demo-pages';
import { navigationPages, pathOf } from './support/site';

test.use({ javaScriptEnabled: false });

test('every navigation page opens and shows its h1 without JavaScript', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  await page.goto('/');
  const pages = [new URL('/', origin).href, ...(await navigationPages(page, origin))];
  const unique = [...new Set(pages)];
  expect(unique.length, 'the home page links to other pages from its header, footer or menus').toBeGreaterThan(1);

  for (const url of unique) {
    await test.step(pathOf(url), async () => {
      const response = await page.goto(url);
      expect.soft(response?.status() ?? 0, `${pathOf(url)} status`).toBeLessThan(400);
      const heading = page.locator('h1');
      await expect.soft(heading, `${pathOf(url)} has exactly one h1`).toHaveCount(1);
      await expect.soft(heading.first(), `${pathOf(url)} shows its h1`).toBeVisible();
      expect.soft((await heading.first().textContent())?.trim() ?? '', `${pathOf(url)} h1 text`).not.toBe('');
    });
  }
});

test('the accordion on the about page opens with native details and summary', async ({ page, baseURL }) => {
  await page.goto(await aboutPage(page, baseURL));
  const items = page.locator('[data-island="accordion"] details');
  const count = await items.count();
  expect(count, 'the about page has an accordion with at least two items').toBeGreaterThanOrEqual(2);

  for (let index = 0; index < count; index += 1) {
    const item = items.nth(index);
    const summary = item.locator(':scope > summary');
    const body = item.locator(':scope > :not(summary)').first();
    await expect(summary).toBeVisible();
    const title = (await summary.textContent())?.trim() ?? '';
    expect(title, `item ${index + 1} has a title`).not.toBe('');
    if ((await item.getAttribute('open')) === null) {
      await expect(body, `body of "${title}" starts closed`).toBeHidden();
      await summary.click();
    }
    await expect(body, `body of "${title}" is readable once opened`).toBeVisible();
    expect((await body.textContent())?.trim() ?? '', `body of "${title}" has text`).not.toBe('');
  }
});
