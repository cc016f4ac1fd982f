//! Finding the demo site's pages from its links, and waiting until a page has finished loading its islands.

import type { Page } from '@playwright/test';

/** Crawls stop here: the demo site is small, and a runaway link generator must not run for ever. */
export const CRAWL_LIMIT = 60;

/** Paths that hold files rather than pages. */
const FILE_PREFIXES = ['/assets/', '/media/'];

/**
 * Turns an href into the page it names on this site: same origin, http(s), not a file under
 * /assets/ or /media/, without the fragment (which names a place on a page already listed).
 */
export function sitePage(href: string, origin: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  if (FILE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return undefined;
  url.hash = '';
  return url.href;
}

function unique(urls: readonly (string | undefined)[]): string[] {
  return [...new Set(urls.filter((url): url is string => url !== undefined))];
}

/** Every page of this site linked from anywhere on the current page: navigation, footer and content. */
export async function linkedPages(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page.locator('a[href], area[href]').evaluateAll((links) =>
    links.map((link) => (link as HTMLAnchorElement | HTMLAreaElement).href),
  );
  return unique(hrefs.map((href) => sitePage(href, origin)));
}

/** The pages the header, footer and navigation menus link to: what a visitor finds without searching. */
export async function navigationPages(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page
    .locator('header a[href], footer a[href], nav a[href]')
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return unique(hrefs.map((href) => sitePage(href, origin)));
}

/** The path and query of a URL, which is how reports name pages. */
export function pathOf(url: string): string {
  const { pathname, search } = new URL(url);
  return `${pathname}${search}`;
}

/**
 * Brings every island into view (they mount when they come near the viewport), then waits until
 * each has mounted or failed and the network is quiet. Returns the islands that did not mount,
 * described as `name: state`.
 */
export async function settlePage(page: Page): Promise<string[]> {
  await page.waitForLoadState('load');
  await page.evaluate(async () => {
    const step = Math.max(window.innerHeight, 200);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  const finished = () =>
    [...document.querySelectorAll('[data-island]')].every((element) =>
      ['mounted', 'failed'].includes(element.getAttribute('data-island-state') ?? ''),
    );
  // Running out of time is not an error here: the islands still pending are returned and reported.
  await page.waitForFunction(finished, undefined, { timeout: 10_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.locator('[data-island]').evaluateAll((elements) =>
    elements
      .filter((element) => element.getAttribute('data-island-state') !== 'mounted')
      .map((element) => `${element.getAttribute('data-island')}: ${element.getAttribute('data-island-state') ?? 'never started'}`),
  );
}
