//! The demo site in French as a visitor meets it: the language switcher in the header leads from
//! an English page to its French copy under /fr, which says `<html lang="fr-FR">`, links to every
//! language's copy with hreflang (x-default included), keeps its links inside French, shows
//! the fixed texts in French, and is accessible; the sitemap lists both languages.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';
import { settlePage } from './support/site';

test('the switcher leads to the French site, which is French, linked and accessible', async ({ page }) => {
  await page.goto('/about');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-GB');
  const switcher = page.getByRole('navigation', { name: 'Language' });
  await expect(switcher.getByRole('link', { name: 'English' })).toHaveAttribute('aria-current', 'true');

  await switcher.getByRole('link', { name: 'Français' }).click();
  await expect(page).toHaveURL(/\/fr\/about$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
  await expect(page).toHaveTitle(/^À propos — Atelier Terraluz$/);
  await expect(page.getByRole('heading', { name: 'Deux potiers et un four' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Aller au contenu' })).toBeAttached();

  // Every language's copy, and the default language's as x-default.
  const alternates = await page
    .locator('link[rel="alternate"][hreflang]')
    .evaluateAll((links) => links.map((link) => [link.getAttribute('hreflang'), new URL(link.getAttribute('href') ?? '').pathname]));
  expect(alternates).toEqual([
    ['en-GB', '/about'],
    ['fr-FR', '/fr/about'],
    ['x-default', '/about'],
  ]);

  // The switcher block at the foot of the page offers the same two copies.
  const block = page.locator('.language-switcher--block');
  await expect(block.getByRole('link', { name: 'English' })).toHaveAttribute('href', '/about');
  await expect(block.getByRole('link', { name: 'Français' })).toHaveAttribute('aria-current', 'true');

  // The menu keeps the visitor in French, and the switcher marks French.
  const menu = page.getByRole('navigation', { name: 'Principal' });
  await expect(menu.getByRole('link', { name: 'Boutique' })).toHaveAttribute('href', '/fr/shop');
  await expect(
    page.getByRole('navigation', { name: 'Langue' }).getByRole('link', { name: 'Français' }),
  ).toHaveAttribute('aria-current', 'true');

  expect(await settlePage(page), 'islands that did not mount').toEqual([]);
  const violations = await axeViolations(page);
  expect(violations.length, formatViolations('/fr/about', violations)).toBe(0);

  await menu.getByRole('link', { name: 'Boutique' }).click();
  await expect(page).toHaveURL(/\/fr\/shop$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
  const french = await axeViolations(page);
  expect(french.length, formatViolations('/fr/shop', french)).toBe(0);
});

test('the sitemap lists each page in both languages with its alternates', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/fr/about</loc>');
  expect(sitemap).toMatch(/<xhtml:link rel="alternate" hreflang="fr-FR" href="[^"]*\/fr\/about"\/>/);
  expect(sitemap).toMatch(/<xhtml:link rel="alternate" hreflang="x-default" href="[^"]*\/about"\/>/);
});
