//! Records what goes wrong while a page loads: console errors, uncaught exceptions and failed same-origin requests.

import type { Page } from '@playwright/test';

export interface PageProblems {
  /** `console.error` calls and browser-logged errors (failed loads, CSP reports, ...). */
  readonly consoleErrors: string[];
  /** Exceptions no script caught. */
  readonly pageErrors: string[];
  /** Same-origin requests that failed at the network level or were answered with 4xx/5xx. */
  readonly failedRequests: string[];
}

export interface WatchOptions {
  /** The site's origin; requests elsewhere are a third party's business and not checked. */
  readonly origin: string;
  /**
   * A URL whose error status is the point of the test (the 404 page). Its status and the
   * browser's matching "Failed to load resource" console line are not reported.
   */
  readonly expectedErrorDocument?: string;
}

/** Starts listening on a fresh page; read the arrays after the checks that matter have finished. */
export function watchPage(page: Page, options: WatchOptions): PageProblems {
  const problems: PageProblems = { consoleErrors: [], pageErrors: [], failedRequests: [] };
  const isOwn = (url: string): boolean => new URL(url).origin === options.origin;

  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const location = message.location().url;
    if (
      options.expectedErrorDocument !== undefined &&
      location === options.expectedErrorDocument &&
      message.text().startsWith('Failed to load resource')
    ) {
      return;
    }
    problems.consoleErrors.push(`${message.text()}${location ? ` (at ${location})` : ''}`);
  });
  page.on('pageerror', (error) => {
    problems.pageErrors.push(error.stack ?? `${error.name}: ${error.message}`);
  });
  page.on('requestfailed', (request) => {
    if (!isOwn(request.url())) return;
    problems.failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (response) => {
    if (!isOwn(response.url()) || response.status() < 400) return;
    if (response.url() === options.expectedErrorDocument) return;
    problems.failedRequests.push(`${response.request().method()} ${response.url()}: HTTP ${response.status()}`);
  });
  return problems;
}

/** Every problem as one readable list, empty when the page loaded cleanly. */
export function describeProblems(problems: PageProblems): string[] {
  return [
    ...problems.consoleErrors.map((text) => `console error: ${text}`),
    ...problems.pageErrors.map((text) => `uncaught exception: ${text}`),
    ...problems.failedRequests.map((text) => `failed request: ${text}`),
  ];
}
