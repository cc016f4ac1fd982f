//! Experiments: the demo's A/B test of the home headline is rendered by the server, so the
//! variant is in the first HTML (no flicker), stays the same across reloads for the same
//! visitor, with or without the visitor cookie; the free-shipping toggle shows its note; axe
//! finds no violations on either page.

import { expect, test, type BrowserContext } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

const HEADLINES: Record<string, string> = {
  control: 'Made slowly, for everyday tables',
  warm: 'Stoneware for long breakfasts and shared tables',
};

interface ExperimentContext {
  name: string;
  experimentType: string;
  variant: string;
  containsError: boolean;
}

/** The variant the raw HTML of the home page names and shows, before any script runs. */
async function firstHtmlVariant(context: BrowserContext): Promise<string> {
  const response = await context.request.get('/');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('private, no-cache');
  const html = await response.text();
  const json = /<script[^>]*id="vitrine-page-context"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}';
  const experiments = (JSON.parse(json) as { experiments?: ExperimentContext[] }).experiments ?? [];
  const headline = experiments.find((experiment) => experiment.name === 'home-headline');
  expect(headline).toMatchObject({ experimentType: 'AB_TEST', containsError: false });
  const variant = headline?.variant ?? '';
  expect(Object.keys(HEADLINES)).toContain(variant);
  for (const [name, text] of Object.entries(HEADLINES)) {
    expect(html.includes(text), `the first HTML holds only the ${variant} headline`).toBe(name === variant);
  }
  return variant;
}

test('the headline variant is in the first HTML and stays across reloads', async ({ browser }) => {
  const context = await browser.newContext();
  const variant = await firstHtmlVariant(context);
  const page = await context.newPage();
  // Every headline the page ever shows, from its first paint on: a flicker would add the other.
  await page.addInitScript(() => {
    const seen = new Set<string>();
    (window as unknown as { __headlines: Set<string> }).__headlines = seen;
    new MutationObserver(() => {
      for (const h1 of document.querySelectorAll('h1')) seen.add(h1.textContent?.trim() ?? '');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  for (let load = 0; load < 3; load += 1) {
    if (load === 0) await page.goto('/');
    else await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: HEADLINES[variant]! })).toBeVisible();
    const seen = await page.evaluate(() => [...(window as unknown as { __headlines: Set<string> }).__headlines]);
    const other = Object.entries(HEADLINES).find(([name]) => name !== variant)?.[1] ?? '';
    expect(seen).not.toContain(other);
  }
  expect(await firstHtmlVariant(context)).toBe(variant);
  await context.close();
});

test('a visitor without tracking consent keeps a daily variant and is given no cookie', async ({ browser }) => {
  // GPC refuses tracking cookies: the bucket comes from the cookieless daily key, the same for
  // the same browser on the same day even in a fresh context.
  const first = await browser.newContext({ extraHTTPHeaders: { 'Sec-GPC': '1' } });
  const variant = await firstHtmlVariant(first);
  expect((await first.cookies()).map((cookie) => cookie.name)).not.toContain('ss_cvr');
  await first.close();
  for (let visit = 0; visit < 2; visit += 1) {
    const again = await browser.newContext({ extraHTTPHeaders: { 'Sec-GPC': '1' } });
    expect(await firstHtmlVariant(again)).toBe(variant);
    await again.close();
  }
});

test('the free-shipping toggle shows its note on the shop page', async ({ page }) => {
  await page.goto('/shop');
  await expect(page.getByText('Orders over €120 ship free within Portugal.')).toBeVisible();
  const context = await page.evaluate(() => JSON.parse(document.getElementById('vitrine-page-context')?.textContent ?? '{}') as { experiments?: ExperimentContext[] });
  expect(context.experiments).toEqual([
    { name: 'free-shipping-note', experimentType: 'FEATURE_TOGGLE', variant: 'true', segmentName: null, containsError: false },
  ]);
});

for (const path of ['/', '/shop']) {
  test(`axe finds no violations on ${path} with its experiments`, async ({ page }) => {
    await page.goto(path);
    const violations = await axeViolations(page);
    expect(violations, formatViolations(path, violations)).toEqual([]);
  });
}
