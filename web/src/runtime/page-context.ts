//! The server-provided page context: JSON in `<script type="application/json" id="vitrine-page-context">`,
//! read by every script and written back once a signed-in owner's part is known.

import { PAGE_CONTEXT_ELEMENT_ID } from './constants';

export type PageContext = Readonly<Record<string, unknown>>;

/**
 * Reads the page context. A page without one, or with malformed JSON, gets an empty context and
 * a console error, because blocks that need none of it must keep working.
 */
export function readPageContext(doc: Document): PageContext {
  const element = doc.getElementById(PAGE_CONTEXT_ELEMENT_ID);
  if (element === null) return {};
  try {
    const value: unknown = JSON.parse(element.textContent ?? '');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as PageContext;
    console.error(`Vitrine: #${PAGE_CONTEXT_ELEMENT_ID} does not hold a JSON object.`);
  } catch (error) {
    console.error(`Vitrine: #${PAGE_CONTEXT_ELEMENT_ID} holds malformed JSON.`, error);
  }
  return {};
}

/** Writes `context` back into the page's context element, so every later reader sees it. */
export function writePageContext(doc: Document, context: PageContext): void {
  const element = doc.getElementById(PAGE_CONTEXT_ELEMENT_ID);
  if (element !== null) element.textContent = JSON.stringify(context);
}
