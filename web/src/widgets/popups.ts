//! Confirmation, alert and information popups (001 s2, s4, s9) on the native `<dialog>`: hidden
//! by their confirm, reject or cancel answer, by Escape, by a click on the overlay, or by the
//! optional timer (an information popup hides after 2000 ms); shown through the overlay
//! coordinator, so one never opens over another modal. Plain DOM, no React.

import { POPUP_HIDE_FALLBACK_MS } from '../generated/widget-constants';
import { openOverlay, type OverlayCoordinator } from '../runtime/overlay-coordinator';
import { autoHideMs, POPUP_BUTTONS, type PopupKind, type PopupResponse } from './popup-rules';

export type { PopupKind, PopupResponse };

export interface PopupOptions {
  readonly kind: PopupKind;
  readonly title: string;
  readonly message: string;
  /** Hides the popup by itself after this long (answering cancel); 0 or none means no timer. */
  readonly timerMs?: number | undefined;
  /** Button labels: confirm is "OK", reject is "Cancel" unless given. */
  readonly confirmLabel?: string;
  readonly rejectLabel?: string;
}

export interface PopupHost {
  readonly window: Window;
  readonly overlays?: OverlayCoordinator | undefined;
}

/** Class names the site stylesheet styles. */
export const POPUP_CLASS = 'vitrine-popup';
const HIDING_CLASS = 'vitrine-popup--hiding';

let counter = 0;

function build(doc: Document, options: PopupOptions): { dialog: HTMLDialogElement; panel: HTMLElement } {
  const id = `vitrine-popup-${(counter += 1)}`;
  const dialog = doc.createElement('dialog');
  dialog.className = `${POPUP_CLASS} ${POPUP_CLASS}--${options.kind}`;
  dialog.dataset['popupKind'] = options.kind;
  // An alert or a question needs an answer; information is said in passing.
  dialog.setAttribute('role', options.kind === 'information' ? 'dialog' : 'alertdialog');
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  dialog.setAttribute('aria-describedby', `${id}-message`);
  const panel = doc.createElement('div');
  panel.className = `${POPUP_CLASS}__panel`;
  const title = doc.createElement('h2');
  title.className = `${POPUP_CLASS}__title`;
  title.id = `${id}-title`;
  title.textContent = options.title;
  const message = doc.createElement('p');
  message.className = `${POPUP_CLASS}__message`;
  message.id = `${id}-message`;
  message.textContent = options.message;
  panel.append(title, message);
  const buttons = POPUP_BUTTONS[options.kind];
  if (buttons.length > 0) {
    const actions = doc.createElement('div');
    actions.className = `${POPUP_CLASS}__actions`;
    for (const response of buttons) {
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = `button button--small ${POPUP_CLASS}__${response}`;
      button.dataset['popupResponse'] = response;
      button.textContent = response === 'confirm' ? (options.confirmLabel ?? 'OK') : (options.rejectLabel ?? 'Cancel');
      actions.append(button);
    }
    panel.append(actions);
  }
  dialog.append(panel);
  return { dialog, panel };
}

/**
 * Shows a popup and resolves with how it was hidden: 'confirm' or 'reject' from its buttons,
 * 'cancel' from Escape, an overlay click or the timer.
 */
export function showPopup(host: PopupHost, options: PopupOptions): Promise<PopupResponse> {
  const win = host.window;
  const doc = win.document;
  const { dialog, panel } = build(doc, options);
  doc.body.append(dialog);
  const timer = autoHideMs(options.kind, options.timerMs);
  let timerId: ReturnType<typeof setTimeout> | undefined;
  let settled = false;

  return new Promise<PopupResponse>((resolve) => {
    const finish = (response: PopupResponse): void => {
      if (settled) return;
      settled = true;
      if (timerId !== undefined) clearTimeout(timerId);
      resolve(response);
      hide();
    };
    const hide = (): void => {
      dialog.classList.add(HIDING_CLASS);
      let done = false;
      const remove = (): void => {
        if (done) return;
        done = true;
        if (dialog.open) dialog.close();
        dialog.remove();
        overlay.release();
      };
      // The fade out ends the hide; a transition that never reports (none under reduced
      // motion, an interrupted one) is covered by the fallback.
      const transitions = win.getComputedStyle(dialog).transitionDuration.split(',').some((d) => parseFloat(d) > 0);
      if (!transitions) remove();
      else {
        dialog.addEventListener('transitionend', remove, { once: true });
        setTimeout(remove, POPUP_HIDE_FALLBACK_MS);
      }
    };
    const overlay = openOverlay(
      win,
      {
        layer: 'popup',
        modal: true,
        element: dialog,
        show: () => {
          if (!dialog.open) dialog.showModal();
          const first = dialog.querySelector<HTMLElement>('[data-popup-response]');
          if (first !== null) first.focus();
          // Runs once the popup is on screen: time spent waiting for another overlay does not count.
          if (timer !== undefined && timerId === undefined) timerId = setTimeout(() => finish('cancel'), timer);
        },
        suspend: () => dialog.close(),
        dismiss: () => finish('cancel'),
      },
      host.overlays,
    );
    panel.addEventListener('click', (event) => {
      const button = (event.target as Element | null)?.closest<HTMLElement>('[data-popup-response]');
      const response = button?.dataset['popupResponse'];
      if (response === 'confirm' || response === 'reject') finish(response);
    });
    // A click on the dialog outside its panel landed on the overlay (the backdrop).
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) finish('cancel');
    });
    // Escape on a modal dialog fires `cancel` when no registry handled the key first.
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish('cancel');
    });
  });
}
