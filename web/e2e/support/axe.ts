//! Runs axe-core on a page with the project's accessibility rule set and prints its findings for people.

import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0 and 2.1, levels A and AA, plus axe's best practices: the bar every public page meets. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
export type AxeViolation = AxeResults['violations'][number];

/**
 * `inThePage` runs axe inside the page alone. By default axe finishes its run in a blank page
 * it opens and closes in the page's context, and a test clock ticking that context meanwhile
 * can meet the closing page and fail.
 */
export async function axeViolations(page: Page, { inThePage = false } = {}): Promise<AxeViolation[]> {
  const results = await new AxeBuilder({ page }).withTags([...AXE_TAGS]).setLegacyMode(inThePage).analyze();
  return results.violations;
}

/**
 * One block per rule: its id, impact and summary, then every offending element with axe's
 * selector, a snippet of its markup and what to fix, so a report can be handed to a page author.
 */
export function formatViolations(where: string, violations: readonly AxeViolation[]): string {
  if (violations.length === 0) return `${where}: no accessibility violations`;
  const blocks = violations.map((violation) => {
    const nodes = violation.nodes.map((node) => {
      const fix = (node.failureSummary ?? '').split('\n').map((line) => `        ${line.trim()}`).join('\n');
      return `    - element ${node.target.join(' ')}\n      html ${node.html.slice(0, 300)}\n${fix}`;
    });
    return [
      `  [${violation.impact ?? 'unknown impact'}] ${violation.id}: ${violation.help}`,
      `    ${violation.helpUrl}`,
      ...nodes,
    ].join('\n');
  });
  return `${where}: ${violations.length} accessibility rule(s) violated\n${blocks.join('\n')}`;
}

/** Fails the test with the readable report when axe finds anything on the page as it stands. */
export async function expectNoViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, formatViolations(where, violations)).toEqual([]);
}
