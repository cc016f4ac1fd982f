//! The captcha widget the provider's script renders into a form: reset after a failed submission (000 s4), because a token verifies once only.

/** The part of reCAPTCHA's, hCaptcha's and Turnstile's browser APIs the island uses. */
interface CaptchaApi {
  reset(widget?: unknown): void;
}

type CaptchaGlobals = Partial<Record<'grecaptcha' | 'hcaptcha' | 'turnstile', CaptchaApi>>;

const API_NAMES: Record<string, keyof CaptchaGlobals> = {
  recaptcha: 'grecaptcha',
  hcaptcha: 'hcaptcha',
  turnstile: 'turnstile',
};

/** Resets the form's widget, if it has one and its provider's script has loaded. */
export function resetCaptcha(form: HTMLFormElement, globals: CaptchaGlobals = window as unknown as CaptchaGlobals): void {
  const container = form.querySelector<HTMLElement>('[data-captcha-provider]');
  const name = API_NAMES[container?.dataset['captchaProvider'] ?? ''];
  if (!container || !name) return;
  try {
    // Turnstile takes the container; reCAPTCHA and hCaptcha reset their first widget without an id.
    globals[name]?.reset(name === 'turnstile' ? container : undefined);
  } catch {
    // A widget the provider failed to render has nothing to reset.
  }
}
