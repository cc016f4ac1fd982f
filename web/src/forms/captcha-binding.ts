//! A submit button bound to the form's captcha (`data-captcha-bound`): disabled after a failed save resets the captcha (000 s4), enabled again when the visitor solves the new one.

import { CaptchaController } from './captcha-widgets';

/** The markup signal: a submit button with this attribute is bound to its form's captcha. */
export const BOUND_ATTRIBUTE = 'data-captcha-bound';

const BOUND_BUTTONS = `button[type="submit"][${BOUND_ATTRIBUTE}], input[type="submit"][${BOUND_ATTRIBUTE}]`;

let callbackNames = 0;

export interface CaptchaBinding {
  /** After the captcha was reset: bound buttons wait for the new solve. */
  readonly afterReset: () => void;
  /** Whether the provider will tell the binding about a solve (else buttons are never disabled). */
  readonly wired: boolean;
  readonly dispose: () => void;
}

const UNBOUND: CaptchaBinding = { afterReset: () => {}, wired: false, dispose: () => {} };

function setDisabled(buttons: readonly (HTMLButtonElement | HTMLInputElement)[], disabled: boolean): void {
  for (const button of buttons) {
    button.disabled = disabled;
    if (disabled) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
  }
}

/**
 * Ties the form's bound submit buttons to its captcha widget. The solve is heard through the
 * provider's callback: given to the controller's explicit render when the provider is loaded
 * and the container is still empty, or named in the container's `data-callback` (and
 * `data-expired-callback`) for the provider's automatic render when its script loads later.
 * A widget the provider rendered before the form was bound cannot report a solve, so its
 * buttons are never disabled: a visitor is never left without a way to send.
 */
export function bindSubmitToCaptcha(form: HTMLFormElement, widgets: CaptchaController = new CaptchaController(), view: Window = window): CaptchaBinding {
  const buttons = [...form.querySelectorAll<HTMLButtonElement | HTMLInputElement>(BOUND_BUTTONS)];
  const container = form.querySelector<HTMLElement>('[data-captcha-provider]');
  if (buttons.length === 0 || !container || container.childElementCount > 0) return UNBOUND;

  const solved = () => setDisabled(buttons, false);
  const expired = () => setDisabled(buttons, true);
  const id = `vitrineCaptcha${(callbackNames += 1)}`;
  const names = { solved: `${id}Solved`, expired: `${id}Expired` };
  const globals = view as unknown as Record<string, unknown>;
  globals[names.solved] = solved;
  globals[names.expired] = expired;
  container.dataset['callback'] = names.solved;
  container.dataset['expiredCallback'] = names.expired;
  container.dataset['errorCallback'] = names.expired;
  // An explicit-render script is already here: render now with the callbacks. Without one, the
  // rejection only means the automatic render (reading the data attributes) is still to come.
  widgets.render(container, { solved, expired }).catch(() => {});

  return {
    afterReset: expired,
    wired: true,
    dispose: () => {
      delete globals[names.solved];
      delete globals[names.expired];
      setDisabled(buttons, false);
    },
  };
}
