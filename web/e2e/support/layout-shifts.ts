//! Layout shifts as the page meets them: recorded from the first paint (buffered), summed on
//! demand, so a test can say nothing moved while images loaded or islands started.

import type { Page } from '@playwright/test';

/** Starts recording the page's layout shifts; call before `page.goto`. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) shifts.push(entry.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The sum of every layout shift recorded so far. */
export function totalLayoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0));
}
