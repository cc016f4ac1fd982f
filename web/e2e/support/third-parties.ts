//! What a visitor's browser asks of other sites: the network log of third-party requests, and a
//! page kept free of the site's popup overlay so a test meets one widget at a time.

import type { BrowserContext, Page } from '@playwright/test';

/** Requests to any other origin than the site's own, in order, as they happen. */
export function thirdPartyRequests(page: Page, baseURL: string | undefined): string[] {
  const origin = new URL(baseURL ?? '').origin;
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) seen.push(request.url());
  });
  return seen;
}

/** Keeps the site's popup overlay away, as if the visitor had closed it. */
export async function withoutPopup(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    localStorage.setItem('squarespace-popup-overlay', JSON.stringify({ 'date-closed': Date.now(), version: 1, submitted: true }));
  });
}
