//! Islands: React loads only on pages with interactive blocks, and the accordion island behaves as the spec says, by mouse and keyboard.

import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { chunkFileName, loadChunkMap } from './support/chunks';
import { aboutPage } from './support/demo-pages';
import { navigationPages, pathOf, settlePage } from './support/site';

/** File names of the same-origin scripts a page requests, in request order (modulepreloads included). */
function recordScripts(page: Page, origin: string): string[] {
  const files: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === origin && /\.m?js$/.test(url.pathname)) files.push(chunkFileName(request.url()));
  });
  return files;
}

test('pages load only the chunks of the islands they contain', async ({ browser, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const chunks = loadChunkMap();
  test.info().annotations.push({ type: 'chunk facts from', description: chunks.source });

  const home = await browser.newPage();
  await home.goto('/');
  const pages = [...new Set([new URL('/', origin).href, ...(await navigationPages(home, origin))])];
  await home.close();
  // A fresh context per page, each waiting for its islands: the budget grows with the site.
  test.setTimeout(30_000 + pages.length * 10_000);

  let islandFreePages = 0;
  for (const url of pages) {
    await test.step(pathOf(url), async () => {
      // A fresh context per page: nothing cached or already loaded can hide a request.
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = recordScripts(page, origin);
      await page.goto(url);
      await settlePage(page);
      const present = new Set(
        await page.locator('[data-island]').evaluateAll((elements) => elements.map((e) => e.getAttribute('data-island') ?? '')),
      );
      if (present.size === 0) islandFreePages += 1;

      const allowed = new Set(chunks.common);
      for (const name of present) for (const file of chunks.islands.get(name) ?? []) allowed.add(file);
      // A banner waiting for an answer and a popup overlay fetch their behaviour's chunks.
      for (const [selector, files] of chunks.features) {
        if ((await page.locator(selector).count()) > 0) for (const file of files) allowed.add(file);
      }
      // A page in another language formats its cart label with ICU messages, whose formatter is
      // a chunk of its own that only such pages load.
      const translatedLabel = (await page.locator('[data-count-message]').count()) > 0;
      const unexpected = scripts.filter(
        (file) => chunks.isOnDemand(file) && !allowed.has(file) && !(translatedLabel && /^messages-[\w-]+\.js$/.test(file)),
      );
      const unknown = scripts.filter((file) => !chunks.isKnown(file));
      expect.soft(unknown, 'scripts the build did not make (rebuild the server after `npm run build`)').toEqual([]);
      expect.soft(unexpected, `on-demand chunks loaded by ${pathOf(url)}, whose islands are [${[...present].join(', ')}]`).toEqual([]);
      if (present.size === 0) {
        expect.soft(scripts.filter((file) => /react/i.test(file)), `React chunks on island-free ${pathOf(url)}`).toEqual([]);
      }
      await context.close();
    });
  }
  expect(islandFreePages, 'at least one navigation page has no interactive block').toBeGreaterThan(0);
});

/**
 * The accordion's headers once the island has mounted (whatever element they are, they carry
 * aria-expanded and aria-controls), with the chunk requests seen so far.
 */
async function mountedAccordion(page: Page, baseURL: string | undefined): Promise<{ triggers: Locator; scripts: string[] }> {
  const origin = new URL(baseURL ?? '').origin;
  const url = await aboutPage(page, baseURL);
  const scripts = recordScripts(page, origin);
  await page.goto(url);
  const block = page.locator('[data-island="accordion"]').first();
  await block.scrollIntoViewIfNeeded();
  await expect(block, `the accordion island on ${pathOf(url)} mounts`).toHaveAttribute('data-island-state', 'mounted');
  const triggers = block.locator('[aria-expanded][aria-controls]');
  expect(await triggers.count(), 'the accordion renders a header with aria-expanded per item').toBeGreaterThanOrEqual(2);
  return { triggers, scripts };
}

/** The panel a header controls, through aria-controls. */
async function panelOf(trigger: Locator): Promise<Locator> {
  const id = await trigger.getAttribute('aria-controls');
  expect(id, 'each accordion button names its panel with aria-controls').toBeTruthy();
  return trigger.page().locator(`[id="${id}"]`);
}

async function expectOpen(trigger: Locator, open: boolean): Promise<void> {
  await expect(trigger).toHaveAttribute('aria-expanded', String(open));
  const panel = await panelOf(trigger);
  if (open) await expect(panel).toBeVisible();
  else await expect(panel).toBeHidden();
}

test('the accordion island loads on the about page and keeps one item open', async ({ page, baseURL }) => {
  const { triggers, scripts } = await mountedAccordion(page, baseURL);
  const chunks = loadChunkMap();
  const accordionFiles = chunks.islands.get('accordion');
  expect(accordionFiles, `an accordion island chunk exists (${chunks.source})`).toBeDefined();
  const requested = scripts.filter((file) =>
    accordionFiles !== undefined && accordionFiles.size > 0 ? accordionFiles.has(file) : file.startsWith('accordion'),
  );
  expect(requested, 'the accordion chunk was requested').not.toEqual([]);

  const first = triggers.nth(0);
  const second = triggers.nth(1);
  if ((await first.getAttribute('aria-expanded')) !== 'true') await first.click();
  await expectOpen(first, true);

  await second.click();
  await expectOpen(second, true);
  await expectOpen(first, false);

  // Clicking the open item toggles it shut, leaving none open.
  await second.click();
  await expectOpen(second, false);
  await expectOpen(first, false);
});

test('the accordion works from the keyboard', async ({ page, baseURL }) => {
  const { triggers } = await mountedAccordion(page, baseURL);
  const first = triggers.nth(0);
  const second = triggers.nth(1);

  // The first header is reached with Tab alone, the way a keyboard user gets there.
  await page.locator('body').focus();
  for (let presses = 0; presses < 200; presses += 1) {
    if (await first.evaluate((element) => element === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(first, 'Tab reaches the first accordion header').toBeFocused();

  const startedOpen = (await first.getAttribute('aria-expanded')) === 'true';
  await page.keyboard.press('Enter');
  await expectOpen(first, !startedOpen);
  await page.keyboard.press('Space');
  await expectOpen(first, startedOpen);
  if (startedOpen) {
    await page.keyboard.press('Enter');
    await expectOpen(first, false);
  }

  // A closed panel holds nothing focusable, so the next Tab lands on the next header.
  await page.keyboard.press('Tab');
  await expect(second, 'Tab moves from a closed item to the next header').toBeFocused();
  await page.keyboard.press('Enter');
  await expectOpen(second, true);
  await expectOpen(first, false);
});

test('the display widgets load only where they are used, and without React', async ({ browser, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const chunks = loadChunkMap();
  const widgetChunks = new Set(['marquee', 'text-effect', 'button'].flatMap((name) => [...(chunks.islands.get(name) ?? [])]));
  expect(widgetChunks.size, 'the build made chunks for the marquee, text-effect and button islands').toBeGreaterThanOrEqual(3);
  // Every island of issue 15's blocks, and the map library the map island imports on demand.
  const blockIslands = ['marquee', 'text-effect', 'button', 'map', 'embed', 'audio', 'menu', 'reservation', 'follow'];
  // The overlay coordinator the button island shares with the cookie banner and the popup
  // overlay, which every page of the demo renders, is not these blocks' own code.
  const shared = new Set([...chunks.features.values()].flatMap((files) => [...files]));
  const blockChunks = new Set(blockIslands.flatMap((name) => [...(chunks.islands.get(name) ?? [])]).filter((file) => !shared.has(file)));
  expect(blockChunks.size, `the build made chunks for ${blockIslands.join(', ')}`).toBeGreaterThanOrEqual(blockIslands.length);
  const assets = fileURLToPath(new URL('../dist/assets', import.meta.url));
  const leafletChunks = existsSync(assets) ? readdirSync(assets).filter((file) => /^leaflet.*\.js$/.test(file)) : [];
  const scriptsOf = async (path: string): Promise<string[]> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const scripts = recordScripts(page, origin);
    await page.goto(path);
    await settlePage(page);
    await context.close();
    return scripts;
  };
  // A page without these blocks loads none of their code.
  const shipping = await scriptsOf('/shipping');
  expect(shipping.filter((file) => blockChunks.has(file) || leafletChunks.includes(file))).toEqual([]);
  // The widgets page loads them, and no React: they are plain DOM.
  const widgets = await scriptsOf('/widgets');
  expect(widgets.filter((file) => widgetChunks.has(file)).length).toBeGreaterThanOrEqual(3);
  expect(widgets.filter((file) => /react/i.test(file))).toEqual([]);
});

test('a page showing the cookie banner and a popup preloads their chunks beside the common script', async ({ page, request, baseURL }) => {
  const chunks = loadChunkMap();
  expect(chunks.features.size, `the banner's and the popup's chunks are known (${chunks.source})`).toBeGreaterThan(0);
  // The links as the server sent them: Vite's preload helper adds its own once the scripts run.
  const html = await (await request.get('/')).text();
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) =>
    chunkFileName(new URL(match[1] ?? '', baseURL).href),
  );
  // A fresh context has answered no banner, so the demo's home page shows both.
  await page.goto('/');
  for (const [selector, files] of chunks.features) {
    expect(await page.locator(selector).count(), `the demo's home page renders ${selector}`).toBeGreaterThan(0);
    expect(files.size, `the build made a chunk for ${selector}`).toBeGreaterThan(0);
    for (const file of files) expect(preloaded, `${file}, which ${selector} needs, is preloaded`).toContain(file);
  }
});
