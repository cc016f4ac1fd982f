//! Benchmark (not a test): the bridge round trip in Chromium, p50 and p99, two ways.
//! - through the simulated app: the page's `VitrineBridge.info` call, the shell's bootstrap
//!   posting it, the shell's handler answering in Node and its reply script injected back. The
//!   DevTools protocol hop each way stands where a device has the native hop.
//! - the page's own share: the same client against an in-page app that answers at once, so
//!   what remains is envelope building, id generation, JSON and settling the promise.
//! Run by `cargo xtask bench --bridge` (or `npm run bench:bridge` with VITRINE_BIN set).

import { test, type Page } from '@playwright/test';
import { installSimulatedApp } from '../support/simulated-app';

const WARM_UP = 50;
const THROUGH_APP = Number(process.env['BRIDGE_BENCH_CALLS'] ?? '1000');
/** Rounds of 100 calls against the in-page app. */
const IN_PAGE_ROUNDS = 300;

function percentile(sorted: readonly number[], p: number): number {
  // Nearest rank, as the project's other percentiles.
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(name: string, samples: number[], callsPerSample = 1): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
  return `| ${name} | ${sorted.length * callsPerSample} | ${f(percentile(sorted, 50))} | ${f(percentile(sorted, 99))} |`;
}

/**
 * Times `samples` rounds of `batch` sequential info calls inside the page; each sample is the
 * mean per call of one round, in milliseconds, since the page's clock is coarsened to 0.1 ms.
 */
function timeCalls(page: Page, samples: number, batch = 1): Promise<number[]> {
  return page.evaluate(
    async ([n, size]) => {
      const bridge = (window as unknown as { VitrineBridge: { info(report: unknown): Promise<unknown> } }).VitrineBridge;
      const report = { pageType: 'Page', cartCount: 2, signedIn: false, locale: 'en-US', experiments: { hero: 'b' } };
      const times: number[] = [];
      for (let i = 0; i < n; i += 1) {
        const start = performance.now();
        for (let j = 0; j < size; j += 1) await bridge.info(report);
        times.push((performance.now() - start) / size);
      }
      return times;
    },
    [samples, batch] as const,
  );
}

test('bridge round trip', async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  await installSimulatedApp(page, new URL(baseURL!).origin);
  await page.goto('/');
  await page.waitForFunction(() => 'VitrineBridge' in window);
  await timeCalls(page, WARM_UP);
  const throughApp = await timeCalls(page, THROUGH_APP);

  // An app inside the page with the shell's object shape, answering each request at once.
  const local = await browser.newPage();
  await local.addInitScript(() => {
    const listeners: Array<(m: string) => void> = [];
    (window as unknown as Record<string, unknown>)['VitrineNativeApp'] = Object.freeze({
      version: 1,
      platform: 'android',
      provides: [],
      consent: null,
      postMessage(message: string) {
        const request = JSON.parse(message) as { id: string; payload: unknown };
        const reply = JSON.stringify({ v: 1, id: request.id, ok: true, result: request.payload });
        queueMicrotask(() => listeners.forEach((listener) => listener(reply)));
      },
      subscribe(listener: (m: string) => void) {
        listeners.push(listener);
        return () => undefined;
      },
    });
  });
  await local.goto('/');
  await local.waitForFunction(() => 'VitrineBridge' in window);
  await timeCalls(local, WARM_UP, 100);
  const inPage = await timeCalls(local, IN_PAGE_ROUNDS, 100);

  console.log(['| round trip | calls | p50 | p99 |', '| --- | ---: | ---: | ---: |', summary('through the simulated app (DevTools hop each way)', throughApp), summary("the page's own share (in-page app; mean per call of rounds of 100)", inPage, 100)].join('\n'));
});
