//! The overlays manager a signed-in owner or editor sees on the live site (000 s1): a small panel
//! listing what this page has of the site's popup overlay and cookie banner, each with a button
//! that opens it for preview. A preview is a copy of the server's markup with every hook of the
//! visitor's runtime taken off, so it records no consent, sends no analytics or census event,
//! submits no form and leaves the visitor's stored dismissal state as it was. A chunk of its own,
//! loaded only after the account's context said so; visitors never receive it.
//!
//! Texts are not given by the specification; these are Vitrine's.

import type { EscapeRegistry } from '../runtime/escape-registry';
import { openOverlay, type OverlayHandle } from '../runtime/overlay-coordinator';
import { BANNER_SELECTOR } from '../consent/banner-markup';
import { POPUP_SELECTOR } from '../popup/popup-markup';

export const OVERLAYS_MANAGER_LABEL = 'Overlays manager';
export const NO_OVERLAYS = 'This page has no popup overlay and no cookie banner.';
export const PREVIEW_NOTE = 'Preview: nothing you do here is saved or counted.';
const LIST_ID = 'owner-overlays-list';
/** Ids inside a preview get this prefix, so they never clash with the page's own. */
const PREVIEW_ID_PREFIX = 'overlay-preview-';
/** Attributes that let the visitor's runtime find and start a copy: taken off every preview. */
const RUNTIME_HOOKS = ['data-vitrine-popup-overlay', 'data-vitrine-cookie-banner', 'data-island', 'data-popup-island', 'data-consent', 'data-popup-close'];
const ID_REFERENCES = ['for', 'aria-labelledby', 'aria-describedby', 'aria-controls', 'form', 'list'];

export type OverlayKind = 'popup-overlay' | 'cookie-banner';

/** One overlay the page has, kept as a detached copy of the server's markup. */
export interface PreviewableOverlay {
  readonly kind: OverlayKind;
  readonly name: string;
  readonly template: HTMLElement;
}

const NAMES: Record<OverlayKind, string> = {
  'popup-overlay': 'Popup overlay',
  'cookie-banner': 'Cookie banner',
};

/**
 * The overlays in `snapshot`: copies of the page's markup taken before the visitor's runtime
 * started (the banner removes itself at once when a consent cookie exists, yet the owner may
 * want to see it).
 */
export function collectOverlays(snapshot: ParentNode): PreviewableOverlay[] {
  const found: PreviewableOverlay[] = [];
  const add = (kind: OverlayKind, selector: string): void => {
    const element = snapshot.querySelector<HTMLElement>(selector);
    if (element !== null) found.push({ kind, name: NAMES[kind], template: element.cloneNode(true) as HTMLElement });
  };
  add('popup-overlay', POPUP_SELECTOR);
  add('cookie-banner', BANNER_SELECTOR);
  return found;
}

/** A copy of `template` the visitor's runtime cannot recognise, with ids of its own. */
export function previewCopy(template: HTMLElement): HTMLElement {
  const copy = template.cloneNode(true) as HTMLElement;
  const elements = [copy, ...copy.querySelectorAll<HTMLElement>('*')];
  for (const element of elements) {
    for (const hook of RUNTIME_HOOKS) {
      if (element.hasAttribute(hook)) {
        element.removeAttribute(hook);
        element.setAttribute(`data-preview-${hook.replace(/^data-/, '')}`, '');
      }
    }
    if (element.id !== '') element.id = `${PREVIEW_ID_PREFIX}${element.id}`;
    for (const name of ID_REFERENCES) {
      const value = element.getAttribute(name);
      if (value !== null) {
        element.setAttribute(name, value.split(/\s+/).filter(Boolean).map((id) => `${PREVIEW_ID_PREFIX}${id}`).join(' '));
      }
    }
  }
  // Server-rendered forms would post for real without JavaScript's help: a preview sends nothing.
  for (const form of copy.querySelectorAll('form')) {
    form.removeAttribute('action');
    form.setAttribute('data-preview-form', '');
  }
  copy.hidden = false;
  copy.setAttribute('data-overlay-preview', '');
  return copy;
}

function isDialog(element: HTMLElement): element is HTMLDialogElement {
  return element.tagName === 'DIALOG';
}

function showDialog(dialog: HTMLDialogElement): void {
  if (dialog.open) return;
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
}

function hideDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === 'function') dialog.close();
  dialog.removeAttribute('open');
}

/** The preview on screen: closed by its own buttons, a form's submission or Escape. */
export function openPreview(win: Window, overlay: PreviewableOverlay): { element: HTMLElement; close(): void } {
  const doc = win.document;
  const element = previewCopy(overlay.template);
  const note = doc.createElement('p');
  note.className = 'owner-preview-note';
  note.textContent = PREVIEW_NOTE;
  element.prepend(note);
  if (!isDialog(element)) {
    element.setAttribute('role', 'dialog');
    element.setAttribute('aria-modal', 'true');
    element.setAttribute('aria-label', `${overlay.name} preview`);
    element.tabIndex = -1;
  }
  let handle: OverlayHandle | undefined;
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    if (isDialog(element)) hideDialog(element);
    element.remove();
    handle?.release();
  };
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    close();
  });
  element.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    if (target?.closest('[data-preview-consent], [data-preview-popup-close]') != null) close();
  });
  // Escape on a modal dialog fires `cancel`; the preview closes through the same path.
  element.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  doc.body.append(element);
  handle = openOverlay(win, {
    layer: 'popup',
    modal: true,
    element,
    show: () => {
      if (isDialog(element)) showDialog(element);
      else element.focus({ preventScroll: true });
    },
    suspend: () => {
      if (isDialog(element)) hideDialog(element);
    },
    dismiss: close,
  });
  return { element, close };
}

/** Puts the panel on the page; returns it. */
export function showOverlaysManager(win: Window, escape: EscapeRegistry, overlays: readonly PreviewableOverlay[]): HTMLElement {
  const doc = win.document;
  const panel = doc.createElement('aside');
  panel.className = 'owner-overlays-manager';
  panel.setAttribute('aria-label', OVERLAYS_MANAGER_LABEL);
  const toggle = doc.createElement('button');
  toggle.type = 'button';
  toggle.textContent = `Overlays (${overlays.length})`;
  toggle.setAttribute('aria-expanded', 'false');
  toggle.setAttribute('aria-controls', LIST_ID);
  const list = doc.createElement('ul');
  list.id = LIST_ID;
  list.hidden = true;
  if (overlays.length === 0) {
    const item = doc.createElement('li');
    item.textContent = NO_OVERLAYS;
    list.append(item);
  }
  for (const overlay of overlays) {
    const item = doc.createElement('li');
    const name = doc.createElement('span');
    name.textContent = overlay.name;
    const preview = doc.createElement('button');
    preview.type = 'button';
    preview.textContent = `Preview ${overlay.name.toLowerCase()}`;
    preview.dataset['previewOverlay'] = overlay.kind;
    preview.addEventListener('click', () => {
      collapse();
      // Focus returns to the panel's button when the preview closes.
      toggle.focus({ preventScroll: true });
      openPreview(win, overlay);
    });
    item.append(name, ' ', preview);
    list.append(item);
  }
  let unregister: (() => void) | undefined;
  function collapse(): void {
    unregister?.();
    unregister = undefined;
    list.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
  }
  const expand = (): void => {
    list.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    unregister = escape.register({
      close: () => {
        unregister = undefined;
        collapse();
        toggle.focus({ preventScroll: true });
      },
    });
  };
  toggle.addEventListener('click', () => (list.hidden ? expand() : collapse()));
  panel.append(toggle, list);
  doc.body.append(panel);
  return panel;
}
