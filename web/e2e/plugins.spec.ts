//! The demo's about page renders the example WebAssembly plugins' blocks on the server (bar and pie charts 62, tour dates 59, and the event summary, a custom type reading the events collection and bringing its own scoped CSS), and they pass axe.

import { expect, test } from '@playwright/test';
import { axeViolations, formatViolations } from './support/axe';

test('the chart, tour dates and event summary plugins render on the about page and pass axe', async ({ page }) => {
  await page.goto('/about');

  const bar = page.locator('.plugin-block[data-block-type="62"] figure.chart').first();
  await expect(bar.getByRole('img', { name: 'Kiln firings in 2025' })).toBeVisible();
  await expect(bar.locator('rect.chart-bar')).toHaveCount(4);
  await expect(bar.getByRole('table')).toContainText('Q4');

  const pie = page.locator('.plugin-block[data-block-type="62"] figure.chart').nth(1);
  await expect(pie.getByRole('img', { name: 'What we made in 2025' })).toBeVisible();
  await expect(pie.locator('path.chart-slice')).toHaveCount(4);
  // The data table is the alternative to the picture, and its colour swatches the legend.
  await expect(pie.getByRole('table').getByRole('rowheader', { name: 'Tableware' })).toBeVisible();
  await expect(pie.locator('.chart-swatch')).toHaveCount(4);

  const tour = page.locator('.plugin-block[data-block-type="59"] .tour-dates li');
  await expect(tour).toHaveCount(3);
  await expect(tour.first().getByRole('link', { name: 'Tickets' })).toHaveAttribute('href', /ourique/);

  // A custom block type has no specification code: its block says 0.
  const events = page.locator('.plugin-block[data-block-type="0"] section.event-summary');
  await expect(events.getByRole('heading', { name: 'Upcoming markets and open days' })).toBeVisible();
  // The demo's events are dated 2027; once they have passed the block says there are none.
  const listed = await events.locator('li').count();
  if (listed > 0) {
    await expect(events.locator('li').first().getByRole('link')).toHaveAttribute('href', /^\/events\//);
    expect(listed).toBeLessThanOrEqual(3);
    // The plugin's own CSS, scoped to its block and served as a stylesheet, applies.
    await expect(events.locator('ul.event-summary-list')).toHaveCSS('list-style-type', 'none');
  } else {
    await expect(events).toContainText('No upcoming events.');
  }
  await expect(page.locator('.plugin-fallback')).toHaveCount(0);

  const violations = await axeViolations(page);
  expect(violations.length, formatViolations('/about', violations)).toBe(0);
});
