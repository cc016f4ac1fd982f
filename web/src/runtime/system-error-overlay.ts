//! Full-screen system error overlay (spec 000 s2 and s8) in plain DOM, so it works without React.

import { BASE_Z_INDEX, SYSTEM_ERROR_TEXTS } from './constants';
import type { EscapeRegistry } from './escape-registry';

/**
 * What the overlay reports. A cleaned error shows only 'Something Went Wrong!'; a network error
 * adds the network message; a raw error adds its own text and the URL that produced it.
 */
export type SystemError =
  | { readonly kind: 'cleaned' }
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'raw'; readonly message: string; readonly url: string };

export interface SystemErrorOverlay {
  /** Shows the overlay, or replaces the error it shows; focus moves into it. */
  show(error: SystemError): void;
  /** Removes the overlay (the Clear button); focus returns where it was. */
  clear(): void;
  readonly isShown: boolean;
}

export interface SystemErrorOverlayOptions {
  readonly document: Document;
  readonly escape: EscapeRegistry;
  /** Reloads the page; injected so tests can observe it. */
  readonly reload: () => void;
}

/** Class names the site stylesheet may style; behaviour does not depend on them. */
export const OVERLAY_CLASS = 'vitrine-system-error';
const TITLE_ID = 'vitrine-system-error-title';
const DETAIL_ID = 'vitrine-system-error-detail';

export function createSystemErrorOverlay(options: SystemErrorOverlayOptions): SystemErrorOverlay {
  const { document: doc, escape, reload } = options;
  let root: HTMLElement | undefined;
  let detail: HTMLElement | undefined;
  let unregisterEscape: (() => void) | undefined;
  let returnFocusTo: Element | null = null;

  const clear = (): void => {
    if (root === undefined) return;
    root.remove();
    root = undefined;
    detail = undefined;
    unregisterEscape?.();
    unregisterEscape = undefined;
    if (returnFocusTo instanceof HTMLElement && returnFocusTo.isConnected) returnFocusTo.focus();
    returnFocusTo = null;
  };

  const build = (): { root: HTMLElement; detail: HTMLElement } => {
    const overlay = doc.createElement('div');
    overlay.className = OVERLAY_CLASS;
    overlay.setAttribute('role', 'alertdialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-labelledby', TITLE_ID);
    overlay.setAttribute('aria-describedby', DETAIL_ID);
    overlay.tabIndex = -1;
    applyBaseStyle(overlay);

    const panel = doc.createElement('div');
    panel.className = `${OVERLAY_CLASS}__panel`;

    const title = doc.createElement('h2');
    title.id = TITLE_ID;
    title.className = `${OVERLAY_CLASS}__title`;
    title.textContent = SYSTEM_ERROR_TEXTS.title;

    const body = doc.createElement('div');
    body.id = DETAIL_ID;
    body.className = `${OVERLAY_CLASS}__detail`;

    const actions = doc.createElement('div');
    actions.className = `${OVERLAY_CLASS}__actions`;
    actions.append(
      button(doc, SYSTEM_ERROR_TEXTS.reload, 'reload', () => reload()),
      button(doc, SYSTEM_ERROR_TEXTS.clear, 'clear', clear),
    );

    panel.append(title, body, actions);
    overlay.append(panel);
    overlay.addEventListener('keydown', (event) => keepFocusInside(overlay, event));
    return { root: overlay, detail: body };
  };

  return {
    show(error) {
      if (root === undefined) {
        returnFocusTo = doc.activeElement;
        ({ root, detail } = build());
        doc.body.append(root);
        unregisterEscape = escape.register({ close: clear });
      }
      fillDetail(doc, detail!, error);
      root.focus();
    },
    clear,
    get isShown() {
      return root !== undefined;
    },
  };
}

function fillDetail(doc: Document, detail: HTMLElement, error: SystemError): void {
  const lines: string[] = [];
  if (error.kind === 'network') lines.push(error.message);
  if (error.kind === 'raw') lines.push(error.message, error.url);
  detail.replaceChildren(
    ...lines.map((text) => {
      const line = doc.createElement('p');
      line.textContent = text;
      return line;
    }),
  );
}

function button(doc: Document, label: string, action: string, onClick: () => void): HTMLButtonElement {
  const element = doc.createElement('button');
  element.type = 'button';
  element.className = `${OVERLAY_CLASS}__button ${OVERLAY_CLASS}__button--${action}`;
  element.textContent = label;
  element.addEventListener('click', onClick);
  return element;
}

/**
 * The overlay must cover the page and be readable even when the site stylesheet failed to load,
 * so its frame is set through the CSSOM (which a `style-src 'self'` policy allows, unlike style
 * attributes in markup). Everything cosmetic is left to the stylesheet.
 */
function applyBaseStyle(overlay: HTMLElement): void {
  const style = overlay.style;
  style.position = 'fixed';
  style.inset = '0';
  style.zIndex = String(BASE_Z_INDEX);
  style.display = 'flex';
  style.alignItems = 'center';
  style.justifyContent = 'center';
  style.background = 'rgba(255, 255, 255, 0.97)';
  style.color = '#111';
  style.textAlign = 'center';
}

/** Tab and Shift+Tab cycle through the overlay's buttons, as behoves a modal dialog. */
function keepFocusInside(overlay: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== 'Tab') return;
  const buttons = [...overlay.querySelectorAll('button')];
  const first = buttons[0];
  const last = buttons[buttons.length - 1];
  if (first === undefined || last === undefined) return;
  const active = overlay.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || active === overlay)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
