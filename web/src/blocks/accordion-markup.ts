//! Reads the server's accordion markup (native <details> items) so the island can take it over and give it back.

/** One `<details class="accordion-item">` as the server rendered it. */
export interface AccordionItemMarkup {
  readonly details: HTMLDetailsElement;
  readonly summary: HTMLElement;
  readonly body: HTMLElement;
  /** The title's content nodes, moved (not copied) into the interactive item, so nothing is re-parsed. */
  readonly titleNodes: readonly Node[];
  /** The body's content nodes, moved as well: forms, media and nested islands inside keep working. */
  readonly bodyNodes: readonly Node[];
  readonly open: boolean;
}

export interface AccordionMarkup {
  /** The element holding the items, which the island renders into. */
  readonly container: HTMLElement;
  readonly items: readonly AccordionItemMarkup[];
  /** Puts the server's markup back, with the content nodes where they came from. */
  restore(): void;
}

export class AccordionMarkupError extends Error {
  override readonly name = 'AccordionMarkupError';
}

export const ITEM_SELECTOR = 'details.accordion-item';
export const TITLE_CLASS = 'accordion-item__title';
export const BODY_CLASS = 'accordion-item__body';

/**
 * Finds the block's own items (not those of an accordion nested in a body). They must share one
 * parent holding nothing else but whitespace, because the island re-renders that parent.
 */
export function readAccordionMarkup(block: HTMLElement): AccordionMarkup {
  const island = block.closest('[data-island]') ?? block;
  const detailsList = [...block.querySelectorAll<HTMLDetailsElement>(ITEM_SELECTOR)].filter(
    (details) => (details.parentElement?.closest(`[data-island], ${ITEM_SELECTOR}`) ?? island) === island,
  );
  const container = detailsList[0]?.parentElement;
  if (container === undefined || container === null) {
    throw new AccordionMarkupError(`accordion block has no ${ITEM_SELECTOR}`);
  }
  const originalChildren = [...container.childNodes];
  const strays = originalChildren.filter(
    (node) => !detailsList.includes(node as HTMLDetailsElement) && !isWhitespace(node),
  );
  if (strays.length > 0) {
    throw new AccordionMarkupError('accordion items must be the only children of their parent element');
  }
  const items = detailsList.map(readItem);
  return {
    container,
    items,
    restore() {
      for (const item of items) {
        item.summary.replaceChildren(...item.titleNodes);
        item.body.replaceChildren(...item.bodyNodes);
      }
      container.replaceChildren(...originalChildren);
    },
  };
}

function readItem(details: HTMLDetailsElement, index: number): AccordionItemMarkup {
  const summary = [...details.children].find((child) => child.tagName === 'SUMMARY') as HTMLElement | undefined;
  const body = [...details.children].find((child) => child.classList.contains(BODY_CLASS)) as HTMLElement | undefined;
  if (summary === undefined || body === undefined) {
    throw new AccordionMarkupError(`accordion item ${index + 1} needs a <summary> and a .${BODY_CLASS}`);
  }
  return {
    details,
    summary,
    body,
    titleNodes: [...summary.childNodes],
    bodyNodes: [...body.childNodes],
    open: details.open,
  };
}

function isWhitespace(node: Node): boolean {
  return (
    node.nodeType === Node.COMMENT_NODE ||
    (node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() === '')
  );
}
