//! Finds the demo pages the tests need by their place in the site's navigation, not by hard-coded paths.

import type { Page } from '@playwright/test';
import { sitePage } from './site';

/**
 * The about page, which holds the demo's accordion: the navigation link named "About", or
 * /about when the home page has no such link (the assertions then say what is missing).
 */
export async function aboutPage(page: Page, baseURL: string | undefined): Promise<string> {
  const origin = new URL(baseURL ?? '').origin;
  await page.goto('/');
  const link = page.locator('header, nav, footer').getByRole('link', { name: /about/i }).first();
  const href = (await link.count()) > 0 ? await link.getAttribute('href') : null;
  return (href !== null ? sitePage(href, origin) : undefined) ?? new URL('/about', origin).href;
}
