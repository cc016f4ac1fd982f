//! Resetting the provider's captcha widget after a failed submission.

import { describe, expect, it } from 'vitest';
import { resetCaptcha } from './captcha';

function form(provider?: string): HTMLFormElement {
  const element = document.createElement('form');
  element.innerHTML = provider ? `<div class="form__captcha" data-captcha-provider="${provider}" data-sitekey="k"></div>` : '';
  return element;
}

describe('resetCaptcha', () => {
  it('resets the widget of the form provider', () => {
    const resets: unknown[] = [];
    const api = { reset: (widget?: unknown) => resets.push(widget ?? 'first') };
    resetCaptcha(form('recaptcha'), { grecaptcha: api });
    resetCaptcha(form('hcaptcha'), { hcaptcha: api });
    const turnstile = form('turnstile');
    resetCaptcha(turnstile, { turnstile: api });
    expect(resets).toEqual(['first', 'first', turnstile.querySelector('[data-captcha-provider]')]);
  });

  it('does nothing without a widget, an unknown provider, a script not loaded, or a throwing widget', () => {
    expect(() => resetCaptcha(form(), {})).not.toThrow();
    expect(() => resetCaptcha(form('other'), {})).not.toThrow();
    expect(() => resetCaptcha(form('turnstile'), {})).not.toThrow();
    const broken = { reset: () => { throw new Error('not rendered'); } };
    expect(() => resetCaptcha(form('hcaptcha'), { hcaptcha: broken })).not.toThrow();
  });
});
