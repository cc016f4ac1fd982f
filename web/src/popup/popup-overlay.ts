//! The popup overlay's behaviour on server-rendered markup (a `<dialog data-vitrine-popup-overlay>`
//! holding the overlay's newsletter form): opened as a modal dialog when the display rules allow,
//! never before the consent decision nor on top of the banner, recorded on close and on
//! submission, with census overlay events (000 s7). Plain TypeScript, no React.

import { readCrumb, withCrumb } from '../runtime/request/crumb';
import { CONSENT_EVENT, bannerPending } from '../consent/cookie-banner';
import { OverlayKind } from '../generated/enums';
import { decide, type PageSituation, type PopupDecision, type PopupSettings } from './rules';
import { closedRecord, submittedRecord, type PopupRecordStore } from './storage';

export const POPUP_SELECTOR = '[data-vitrine-popup-overlay]';
export const OVERLAY_CENSUS_PATH = '/api/census/overlay';
/** Fired (by the form island) on the dialog when its form was submitted successfully. */
export const FORM_SUBMITTED_EVENT = 'vitrine:form-submitted';

export interface PopupHost {
  readonly window: Window & typeof globalThis;
  readonly settings: PopupSettings;
  /** What the page knows apart from the banner and the clock. */
  readonly page: Omit<PageSituation, 'bannerPending' | 'nowMs'>;
  readonly store: PopupRecordStore;
  readonly now?: () => number;
}

function sendOverlayEvent(win: Window & typeof globalThis, event: 'show' | 'close' | 'submit'): void {
  const url = withCrumb(OVERLAY_CENSUS_PATH, readCrumb(win.document), win.location.href);
  // Analytics failures are silent (000 s8).
  void win
    .fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event, overlayKind: OverlayKind.PopupOverlay, pagePath: win.location.pathname }),
      keepalive: true,
    })
    .catch(() => undefined);
}

function open(dialog: HTMLElement): void {
  const modal = dialog as HTMLDialogElement;
  if (typeof modal.showModal === 'function') modal.showModal();
  else dialog.setAttribute('open', '');
}

/** Starts the popup; resolves the first decision (a pending banner defers it to the consent event). */
export function startPopupOverlay(host: PopupHost): PopupDecision | undefined {
  const win = host.window;
  const doc = win.document;
  const dialog = doc.querySelector<HTMLElement>(POPUP_SELECTOR);
  if (dialog === null) return undefined;
  const now = host.now ?? (() => Date.now());
  const version = host.settings.version;
  const evaluate = (): PopupDecision => {
    const decision = decide(host.settings, host.store.read(), {
      ...host.page,
      bannerPending: bannerPending(doc),
      nowMs: now(),
    });
    if (decision.decision === 'show') {
      open(dialog);
      sendOverlayEvent(win, 'show');
    }
    return decision;
  };
  const first = evaluate();
  if (first.decision === 'hide' && first.reason === 'banner-pending') {
    win.addEventListener(CONSENT_EVENT, () => evaluate(), { once: true });
  }
  const close = (): void => {
    host.store.write(closedRecord(host.store.read(), version, now()));
    (dialog as HTMLDialogElement).close?.();
    dialog.removeAttribute('open');
    sendOverlayEvent(win, 'close');
  };
  dialog.querySelector('[data-popup-close]')?.addEventListener('click', close);
  // Escape on a modal dialog fires `cancel`: it counts as closing.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener(FORM_SUBMITTED_EVENT, () => {
    host.store.write(submittedRecord(version, now()));
    sendOverlayEvent(win, 'submit');
  });
  return first;
}
