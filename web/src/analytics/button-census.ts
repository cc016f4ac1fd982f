//! Button census (000 s7): `POST /api/census/button-render` once per button block on the page and
//! `POST /api/census/button-click` on a click, JSON with the button's id, buttonText,
//! clickthroughUrl, alignment, size, newWindow, context, the visitor cookie (only when tracking is
//! allowed) and the page path; 2.5 s time-out, failures swallowed. No React.

import { readCookie, sendWithCrumb } from '../runtime/request/crumb';

export const BUTTON_RENDER_PATH = '/api/census/button-render';
export const BUTTON_CLICK_PATH = '/api/census/button-click';
export const BUTTON_CENSUS_TIMEOUT_MS = 2500;
const BUTTON_BLOCKS = '.sqs-block.button-block';

/** The event of one server-rendered button block (markup of `templates/blocks/button.html`). */
export function buttonEvent(block: HTMLElement, pagePath: string, visitorCookie: string | undefined): Record<string, unknown> | undefined {
  const link = block.querySelector<HTMLAnchorElement>('a.button');
  if (link === null) return undefined;
  const modifier = (element: Element | null, stem: string): string =>
    [...(element?.classList ?? [])].find((name) => name.startsWith(`${stem}--`))?.slice(stem.length + 2) ?? '';
  // The visually hidden "(opens in a new tab)" is for screen readers, not part of the label.
  const label = [...link.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent ?? '').join('').trim();
  return {
    id: block.id.replace(/^block-/, ''),
    buttonText: label,
    clickthroughUrl: link.href,
    alignment: modifier(link.closest('.button-wrap'), 'button-wrap'),
    size: modifier(link, 'button'),
    newWindow: link.target === '_blank',
    context: 'button-block',
    ...(visitorCookie === undefined ? {} : { visitorCookie }),
    pagePath,
  };
}

export interface ButtonCensusHost {
  readonly window: Window & typeof globalThis;
  /** Whether tracking cookies are allowed: only then is the visitor cookie sent. */
  readonly tracking: boolean;
}

function send(win: Window & typeof globalThis, path: string, event: Record<string, unknown>): void {
  sendWithCrumb(win, path, (url) => {
    const abort = new AbortController();
    const timer = win.setTimeout(() => abort.abort(), BUTTON_CENSUS_TIMEOUT_MS);
    void win
      .fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
        keepalive: true,
        signal: abort.signal,
      })
      // Analytics failures are silent (000 s8).
      .catch(() => undefined)
      .finally(() => win.clearTimeout(timer));
  });
}

/** Sends a render event per button block and a click event per click. */
export function startButtonCensus(host: ButtonCensusHost): number {
  const win = host.window;
  const doc = win.document;
  const blocks = [...doc.querySelectorAll<HTMLElement>(BUTTON_BLOCKS)];
  const visitor = () => (host.tracking ? readCookie(doc, 'ss_cvr') : undefined);
  for (const block of blocks) {
    const event = buttonEvent(block, win.location.pathname, visitor());
    if (event === undefined) continue;
    send(win, BUTTON_RENDER_PATH, event);
    block.querySelector('a.button')?.addEventListener('click', () => {
      send(win, BUTTON_CLICK_PATH, buttonEvent(block, win.location.pathname, visitor()) ?? event);
    });
  }
  return blocks.length;
}
