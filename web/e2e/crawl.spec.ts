//! Crawls the demo storefront from its home page and holds every page to the same bar: it loads, cleanly, and is accessible.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { describeProblems, watchPage } from './support/page-problems';
import { CRAWL_LIMIT, linkedPages, pathOf, settlePage } from './support/site';

test('every linked page loads without errors and passes axe', async ({ browser, baseURL }) => {
  test.setTimeout(CRAWL_LIMIT * 10_000);
  const origin = new URL(baseURL ?? '').origin;
  const queue = [new URL('/', origin).href];
  const visited = new Set<string>(queue);
  const context = await browser.newContext();

  for (let index = 0; index < queue.length; index += 1) {
    const url = queue[index] as string;
    await test.step(pathOf(url), async () => {
      const page = await context.newPage();
      const problems = watchPage(page, { origin });
      const response = await page.goto(url);
      const status = response?.status() ?? 0;
      expect.soft(status, `${pathOf(url)} answered HTTP ${status}`).toBeLessThan(400);

      const isHtml = (response?.headers()['content-type'] ?? '').startsWith('text/html');
      if (isHtml) {
        const unmounted = await settlePage(page);
        expect.soft(unmounted, `islands on ${pathOf(url)} that did not mount`).toEqual([]);

        const violations = await axeViolations(page);
        expect.soft(violations.length, formatViolations(pathOf(url), violations)).toBe(0);

        for (const linked of await linkedPages(page, origin)) {
          if (visited.has(linked) || visited.size >= CRAWL_LIMIT) continue;
          visited.add(linked);
          queue.push(linked);
        }
      }
      expect.soft(describeProblems(problems), `problems while loading ${pathOf(url)}`).toEqual([]);
      await page.close();
    });
  }

  await context.close();
  // A home page that links nowhere would make the crawl pass without testing anything.
  expect(visited.size, `pages found: ${[...visited].map(pathOf).join(', ')}`).toBeGreaterThan(1);
  test.info().annotations.push({ type: 'pages crawled', description: [...visited].map(pathOf).join(' ') });
});
