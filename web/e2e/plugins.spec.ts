//! The demo's about page renders the example WebAssembly plugins' blocks (chart 62, tour dates 59) on the server, and they pass axe.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

test('the chart and tour dates plugins render on the about page and pass axe', async ({ page }) => {
  await page.goto('/about');

  const chart = page.locator('.plugin-block[data-block-type="62"] figure.chart');
  await expect(chart.getByRole('img', { name: 'Kiln firings in 2025' })).toBeVisible();
  await expect(chart.locator('rect.chart-bar')).toHaveCount(4);
  await expect(chart.getByRole('table')).toContainText('Q4');

  const tour = page.locator('.plugin-block[data-block-type="59"] .tour-dates li');
  await expect(tour).toHaveCount(3);
  await expect(tour.first().getByRole('link', { name: 'Tickets' })).toHaveAttribute('href', /ourique/);
  await expect(page.locator('.plugin-fallback')).toHaveCount(0);

  const violations = await axeViolations(page);
  expect(violations.length, formatViolations('/about', violations)).toBe(0);
});
