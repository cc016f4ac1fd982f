//! The popup overlay's behaviour on server-rendered markup (a `<dialog data-vitrine-popup-overlay>`
//! holding the overlay's newsletter form): opened as a modal dialog when the display rules allow,
//! never before the consent decision nor on top of the banner, recorded on close and on
//! submission, with census overlay events (000 s7). Plain TypeScript, no React; a chunk of its
//! own, fetched only by a page with a popup overlay.

import { openOverlay, type OverlayHandle } from '../runtime/overlay-coordinator';
import { sendWithCrumb } from '../runtime/request/crumb';
import { CONSENT_EVENT, bannerPending } from '../consent/banner-markup';
import { OverlayKind } from '../generated/enums';
import { decide, type PageSituation, type PopupDecision, type PopupSettings } from './rules';
import { FORM_SUBMITTED_EVENT } from '../forms/events';
import { POPUP_SELECTOR } from './popup-markup';
import { closedRecord, popupRecordStore, submittedRecord, type PopupRecordStore } from './storage';

export const OVERLAY_CENSUS_PATH = '/api/census/overlay';
/** Fired (by the form flow, bubbling) on the dialog's form block after a successful submission. */
export { FORM_SUBMITTED_EVENT };
/** The overlay's form block waits under this attribute until the dialog opens (see `mountDeferredIslands`). */
export const DEFERRED_ISLAND_ATTRIBUTE = 'data-popup-island';

export interface PopupHost {
  readonly window: Window & typeof globalThis;
  readonly settings: PopupSettings;
  /** What the page knows apart from the banner and the clock. */
  readonly page: Omit<PageSituation, 'bannerPending' | 'nowMs'>;
  /** Where the visitor's closings and submissions are kept; the browser's storage by default. */
  readonly store?: PopupRecordStore;
  readonly now?: () => number;
}

function sendOverlayEvent(win: Window & typeof globalThis, event: 'show' | 'close' | 'submit'): void {
  const body = JSON.stringify({ event, overlayKind: OverlayKind.PopupOverlay, pagePath: win.location.pathname });
  // Analytics failures are silent (000 s8).
  sendWithCrumb(win, OVERLAY_CENSUS_PATH, (url) => {
    void win
      .fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body, keepalive: true })
      .catch(() => undefined);
  });
}

function showDialog(win: Window, dialog: HTMLElement): void {
  const modal = dialog as HTMLDialogElement;
  if (modal.open) return;
  if (typeof modal.showModal === 'function') modal.showModal();
  else dialog.setAttribute('open', '');
  mountDeferredIslands(win, dialog);
}

function hideDialog(dialog: HTMLElement): void {
  (dialog as HTMLDialogElement).close?.();
  dialog.removeAttribute('open');
}

/**
 * Turns the dialog's waiting form blocks into islands and asks the runtime to mount them: the
 * newsletter island (and React with it) loads only when a visitor actually sees the popup.
 */
export function mountDeferredIslands(win: Window, dialog: HTMLElement): void {
  const waiting = dialog.querySelectorAll<HTMLElement>(`[${DEFERRED_ISLAND_ATTRIBUTE}]`);
  if (waiting.length === 0) return;
  for (const block of waiting) {
    block.setAttribute('data-island', block.getAttribute(DEFERRED_ISLAND_ATTRIBUTE) ?? '');
    block.removeAttribute(DEFERRED_ISLAND_ATTRIBUTE);
  }
  (win as unknown as { Vitrine?: { scanIslands?: () => void } }).Vitrine?.scanIslands?.();
}

/** Starts the popup; resolves the first decision (a pending banner defers it to the consent event). */
export function startPopupOverlay(host: PopupHost): PopupDecision | undefined {
  const win = host.window;
  const doc = win.document;
  const found = doc.querySelector<HTMLElement>(POPUP_SELECTOR);
  if (found === null) return undefined;
  const dialog: HTMLElement = found;
  const now = host.now ?? (() => Date.now());
  const store = host.store ?? popupRecordStore(win);
  const version = host.settings.version;
  let overlay: OverlayHandle | undefined;
  const evaluate = (): PopupDecision => {
    const decision = decide(host.settings, store.read(), {
      ...host.page,
      bannerPending: bannerPending(doc),
      nowMs: now(),
    });
    if (decision.decision === 'show' && overlay === undefined) {
      let announced = false;
      // Automatic: it waits behind the banner and behind a popup the visitor opened, and
      // steps aside (to come back) for one opened over it.
      overlay = openOverlay(win, {
        layer: 'popup-overlay',
        modal: true,
        automatic: true,
        element: dialog,
        show: () => {
          showDialog(win, dialog);
          if (!announced) sendOverlayEvent(win, 'show');
          announced = true;
        },
        suspend: () => hideDialog(dialog),
        dismiss: () => close(),
      });
    }
    return decision;
  };
  const first = evaluate();
  if (first.decision === 'hide' && first.reason === 'banner-pending') {
    win.addEventListener(CONSENT_EVENT, () => evaluate(), { once: true });
  }
  function close(): void {
    store.write(closedRecord(store.read(), version, now()));
    hideDialog(dialog);
    overlay?.release();
    sendOverlayEvent(win, 'close');
  }
  dialog.querySelector('[data-popup-close]')?.addEventListener('click', close);
  // Escape on a modal dialog fires `cancel`: it counts as closing.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener(FORM_SUBMITTED_EVENT, () => {
    store.write(submittedRecord(version, now()));
    sendOverlayEvent(win, 'submit');
  });
  return first;
}
