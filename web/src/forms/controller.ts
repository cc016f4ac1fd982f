//! The submit flow over one server-rendered form (spec 000 s4): validate, lock, fetch a key, save, then the success view or the errors; shared by the form and newsletter islands.

import { resetCaptcha } from './captcha';
import { bindSubmitToCaptcha } from './captcha-binding';
import { CaptchaController } from './captcha-widgets';
import { FORM_SUBMITTED_EVENT } from './events';
import { attachCounters, clearFieldErrors, lockForm, showFieldErrors, showSuccess } from './markup';
import { CAPTCHA_UNSOLVED, ERRORS_ABOVE, ERRORS_BELOW, FIELDS_INVALID } from './messages';
import type { FieldProps } from './model';
import { buildPayload, submitForm, submitReducer, IDLE, type Post, type SubmitState } from './submission';
import { validateForm } from './validation';
import { readFormValues } from './values';

/** Inputs a captcha widget (reCAPTCHA, hCaptcha, Turnstile) fills with its token. */
const CAPTCHA_INPUTS = 'textarea[name="g-recaptcha-response"], textarea[name="h-captcha-response"], input[name="cf-turnstile-response"]';

export interface ControllerOptions {
  readonly block: HTMLElement;
  readonly form: HTMLFormElement;
  readonly formId: string;
  readonly fields: readonly FieldProps[];
  readonly newsletter: boolean;
  readonly post: Post;
  /** The element shown after success (the server's post-submit message). */
  readonly success: HTMLElement;
  readonly collectionId: string;
  readonly search: string;
  /** Told about every state change, to render the status messages. */
  readonly onState: (state: SubmitState) => void;
  /** The form's success URL: after success the visitor goes there instead of seeing the message. */
  readonly successUrl?: string | undefined;
  /** Loads a URL in the page (`location.assign` unless a test passes its own). */
  readonly navigate?: ((url: string) => void) | undefined;
  /** Renders, resets and destroys the captcha widget (the page's providers unless a test passes its own). */
  readonly captchaWidgets?: CaptchaController | undefined;
}

/** Takes over the form's submit; returns the function that gives it back. */
export function controlForm(options: ControllerOptions): () => void {
  const { block, form, fields } = options;
  let state: SubmitState = IDLE;
  const dispatch = (event: Parameters<typeof submitReducer>[1]) => {
    state = submitReducer(state, event);
    options.onState(state);
  };
  const detachCounters = attachCounters(form);
  const widgets = options.captchaWidgets ?? new CaptchaController();
  const captchaBinding = bindSubmitToCaptcha(form, widgets);
  // The island shows the spec's messages itself, instead of the browser's bubbles.
  const noValidate = form.noValidate;
  form.noValidate = true;

  const fail = (message: string, fieldErrors: Record<string, string> = {}) => {
    dispatch({ type: 'failed', message, fieldErrors });
    const first = showFieldErrors(block, fields, fieldErrors);
    const summary = block.querySelector<HTMLElement>('.form__status');
    (first ?? summary)?.focus();
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (state.phase === 'locked' || state.phase === 'success') return;
    clearFieldErrors(block);
    const values = readFormValues(form, fields, options.search);
    const errors = validateForm(fields, values);
    if (Object.keys(errors).length > 0) {
      dispatch({ type: 'submit' });
      fail(FIELDS_INVALID, errors);
      return;
    }
    const captcha = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(CAPTCHA_INPUTS);
    if (captcha && captcha.value.trim() === '') {
      dispatch({ type: 'submit' });
      fail(CAPTCHA_UNSOLVED);
      return;
    }
    dispatch({ type: 'submit' });
    const unlock = lockForm(form);
    const submitter = event.submitter ?? form.querySelector('button[type="submit"]');
    const honeypot = form.querySelector<HTMLInputElement>('input[name="honeypot"]')?.value ?? '';
    const result = await submitForm(options.post, (key) =>
      buildPayload({
        key,
        formId: options.formId,
        collectionId: options.collectionId,
        objectName: options.newsletter ? options.formId : '',
        isOverlayForm: block.closest('[data-overlay-form]') !== null,
        submitButtonText: submitter?.textContent?.trim() ?? '',
        values,
        captchaKey: captcha?.value,
        honeypot,
      }),
    );
    unlock();
    if (result.ok) {
      dispatch({ type: 'succeeded' });
      block.dispatchEvent(new CustomEvent(FORM_SUBMITTED_EVENT, { bubbles: true }));
      if (options.successUrl) {
        (options.navigate ?? ((url: string) => window.location.assign(url)))(options.successUrl);
      } else {
        showSuccess(form, options.success);
      }
    } else {
      // The server spent the captcha token: the visitor solves a fresh one to resend.
      const container = form.querySelector<HTMLElement>('[data-captcha-provider]');
      if (!container || !widgets.reset(container)) resetCaptcha(form);
      captchaBinding.afterReset();
      fail(result.message, result.fieldErrors);
    }
  };
  const listener = (event: Event) => void onSubmit(event as SubmitEvent);
  form.addEventListener('submit', listener);
  return () => {
    form.removeEventListener('submit', listener);
    form.noValidate = noValidate;
    detachCounters();
    captchaBinding.dispose();
    clearFieldErrors(block);
  };
}

/** The status texts for a state: the top message, and for non-newsletter forms with errors the one below. */
export function statusTexts(state: SubmitState, newsletter: boolean): { above?: string; below?: string } {
  if (state.phase !== 'failure') return {};
  const hasFieldErrors = Object.keys(state.fieldErrors).length > 0;
  if (newsletter) return { above: hasFieldErrors ? (Object.values(state.fieldErrors)[0] ?? state.message) : state.message };
  if (!hasFieldErrors) return { above: state.message, below: ERRORS_BELOW };
  return { above: ERRORS_ABOVE, below: ERRORS_BELOW };
}
