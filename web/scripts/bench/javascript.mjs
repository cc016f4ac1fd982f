//! Finds the demo pages from the site's navigation and weighs the JavaScript each one downloads on a first visit.

/** Paths that hold files rather than pages. */
const FILE_PREFIXES = ['/assets/', '/media/'];
/** How long lazily mounted islands get to load their chunks after the page is scrolled through. */
const ISLAND_WAIT_MS = 10_000;

/**
 * The home page and every page its header, footer and menus link to, on the same origin.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} origin
 * @returns {Promise<string[]>}
 */
export async function demoPages(browser, origin) {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const hrefs = await page
    .locator('header a[href], footer a[href], nav a[href]')
    .evaluateAll((links) => links.map((link) => /** @type {HTMLAnchorElement} */ (link).href));
  await page.close();
  const pages = [`${origin}/`];
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== origin || FILE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) continue;
    url.hash = '';
    if (!pages.includes(url.href)) pages.push(url.href);
  }
  return pages;
}

/**
 * @typedef {object} JavascriptWeight
 * @property {string} url
 * @property {number} scripts number of script responses
 * @property {number} transferBytes compressed body bytes as received
 * @property {number} decodedBytes body bytes after decompression
 * @property {string[]} encodings content-encoding of each script (`identity` when none)
 */

/**
 * Opens the page in a fresh context (empty cache), scrolls through it so every island near the
 * viewport loads, and adds up the scripts it downloaded.
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @returns {Promise<JavascriptWeight>}
 */
export async function javascriptWeight(browser, url) {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'br, gzip' } });
  const page = await context.newPage();
  /** @type {Promise<{ transfer: number, decoded: number, encoding: string }>[]} */
  const measured = [];
  page.on('response', (response) => {
    const request = response.request();
    const isScript =
      request.resourceType() === 'script' || /javascript|ecmascript/.test(response.headers()['content-type'] ?? '');
    if (!isScript) return;
    measured.push(
      (async () => {
        const [sizes, body] = await Promise.all([request.sizes(), response.body()]);
        const headers = response.headers();
        // Chromium reports the encoded body size; content-length is the fallback when it cannot.
        const transfer = sizes.responseBodySize > 0 ? sizes.responseBodySize : Number(headers['content-length'] ?? body.length);
        return { transfer, decoded: body.length, encoding: headers['content-encoding'] ?? 'identity' };
      })(),
    );
  });

  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('[data-island]')].every((element) =>
          ['mounted', 'failed'].includes(element.getAttribute('data-island-state') ?? ''),
        ),
      undefined,
      { timeout: ISLAND_WAIT_MS },
    )
    .catch(() => undefined);
  await page.waitForLoadState('networkidle');
  const scripts = await Promise.all(measured);
  await context.close();
  return {
    url,
    scripts: scripts.length,
    transferBytes: scripts.reduce((sum, script) => sum + script.transfer, 0),
    decodedBytes: scripts.reduce((sum, script) => sum + script.decoded, 0),
    encodings: scripts.map((script) => script.encoding),
  };
}
