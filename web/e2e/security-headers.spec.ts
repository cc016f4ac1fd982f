//! Security headers: pages carry a Content-Security-Policy, and nothing the storefront itself does breaks it.

import { expect, test, type Page } from '@playwright/test';
import { aboutPage } from './support/demo-pages';
import { navigationPages, pathOf, settlePage } from './support/site';

interface Violation {
  readonly directive: string;
  readonly blocked: string;
  readonly source: string;
}

/** Collects securitypolicyviolation events (from before any page script runs) and CSP console errors. */
async function watchCsp(page: Page): Promise<{ events: () => Promise<Violation[]>; console: string[] }> {
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { __cspViolations: Violation[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({
        directive: event.violatedDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) console.push(message.text());
  });
  return {
    events: () => page.evaluate(() => (window as unknown as { __cspViolations?: Violation[] }).__cspViolations ?? []),
    console,
  };
}

test('every navigation page sends a Content-Security-Policy header', async ({ page, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  await page.goto('/');
  const pages = [...new Set([new URL('/', origin).href, ...(await navigationPages(page, origin)), new URL('/no-such-page', origin).href])];
  for (const url of pages) {
    const response = await page.request.get(url);
    const policy = response.headers()['content-security-policy'] ?? '';
    expect.soft(policy, `Content-Security-Policy of ${pathOf(url)}`).not.toBe('');
    expect.soft(policy, `${pathOf(url)} restricts where scripts come from`).toMatch(/(?:script-src|default-src)/);
  }
});

test('no page of the storefront triggers a CSP violation', async ({ browser, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const home = await browser.newPage();
  const pages = [
    ...new Set([
      new URL('/', origin).href,
      await aboutPage(home, baseURL),
      ...(await navigationPages(home, origin)),
      new URL('/no-such-page', origin).href,
    ]),
  ];
  await home.close();
  // One fresh page per URL, each waiting for its islands: the budget grows with the site.
  test.setTimeout(30_000 + pages.length * 10_000);

  for (const url of pages) {
    await test.step(pathOf(url), async () => {
      const page = await browser.newPage();
      const csp = await watchCsp(page);
      await page.goto(url);
      // Islands load late; their chunks and styles must pass the policy too.
      await settlePage(page);
      expect.soft(await csp.events(), `securitypolicyviolation events on ${pathOf(url)}`).toEqual([]);
      expect.soft(csp.console, `CSP errors in the console on ${pathOf(url)}`).toEqual([]);
      await page.close();
    });
  }
});
