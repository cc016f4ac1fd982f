//! A submit button bound to the captcha: disabled after a failed save resets the captcha, enabled by the provider's solve callback; an unbound button is unaffected.

import { afterEach, describe, expect, it } from 'vitest';
import { BOUND_ATTRIBUTE, bindSubmitToCaptcha } from './captcha-binding';
import { CaptchaController, type ExplicitCaptchaApi } from './captcha-widgets';
import { controlForm } from './controller';
import type { FieldProps } from './model';
import { KEY_URL, type Post } from './submission';

/** A provider with an explicit render that keeps the callbacks, as the real ones call them. */
class FakeProvider implements ExplicitCaptchaApi {
  params: Record<string, unknown> = {};
  readonly resets: unknown[] = [];
  render(container: HTMLElement, params: Record<string, unknown>): unknown {
    this.params = params;
    container.append(document.createElement('iframe'));
    return 'widget-1';
  }
  reset(widget?: unknown): void {
    this.resets.push(widget);
  }
  solve(token: string): void {
    (this.params['callback'] as (token: string) => void)(token);
  }
}

const fields: FieldProps[] = [{ id: 'name', type: 'text', title: 'Name', required: false }];

function setup(bound: boolean): { block: HTMLElement; form: HTMLFormElement; button: HTMLButtonElement; response: HTMLTextAreaElement } {
  const block = document.createElement('div');
  block.innerHTML = `<form class="form">
    <div class="field"><label for="f-name">Name</label><input id="f-name" name="name" type="text"></div>
    <div class="form__captcha g-recaptcha" data-captcha-provider="recaptcha" data-sitekey="k"></div>
    <textarea name="g-recaptcha-response" hidden>solved-token</textarea>
    <div class="form__actions"><button class="button" type="submit"${bound ? ` ${BOUND_ATTRIBUTE}` : ''}>Send</button></div>
    <div class="form__success" hidden><p>Thanks!</p></div>
  </form>`;
  document.body.append(block);
  return {
    block,
    form: block.querySelector('form')!,
    button: block.querySelector('button')!,
    response: block.querySelector('textarea')!,
  };
}

const failingPost: Post = async (url) =>
  url === KEY_URL ? { ok: true, data: { key: 'k' } } : { ok: false, failure: { status: 400, body: { error: 'x', errors: {} } } };

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function control(block: HTMLElement, form: HTMLFormElement, widgets: CaptchaController): () => void {
  return controlForm({
    block,
    form,
    formId: 'contact',
    fields,
    newsletter: false,
    post: failingPost,
    success: block.querySelector<HTMLElement>('.form__success')!,
    collectionId: '',
    search: '',
    onState: () => {},
    captchaWidgets: widgets,
  });
}

afterEach(() => {
  document.body.innerHTML = '';
  delete (window as unknown as { grecaptcha?: unknown }).grecaptcha;
});

describe('a submit button bound to the captcha', () => {
  it('is disabled after a failed save resets the captcha, and enabled when the new one is solved', async () => {
    const grecaptcha = new FakeProvider();
    const { block, form, button } = setup(true);
    control(block, form, new CaptchaController({ globals: { grecaptcha }, log: () => {} }));
    await settle();
    expect(button.disabled).toBe(false);

    form.requestSubmit();
    await settle();
    await settle();
    expect(grecaptcha.resets).toEqual(['widget-1']);
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-disabled')).toBe('true');

    grecaptcha.solve('new-token');
    expect(button.disabled).toBe(false);
    expect(button.hasAttribute('aria-disabled')).toBe(false);
  });

  it('is disabled again when the solved captcha expires', async () => {
    const grecaptcha = new FakeProvider();
    const { form, button } = setup(true);
    bindSubmitToCaptcha(form, new CaptchaController({ globals: { grecaptcha }, log: () => {} }));
    await settle();
    (grecaptcha.params['expired-callback'] as () => void)();
    expect(button.disabled).toBe(true);
    grecaptcha.solve('t');
    expect(button.disabled).toBe(false);
  });

  it('hears the solve through the data-callback names when the provider renders the widget itself later', () => {
    const { form, button } = setup(true);
    const binding = bindSubmitToCaptcha(form, new CaptchaController({ globals: {}, log: () => {} }));
    const container = form.querySelector<HTMLElement>('[data-captcha-provider]')!;
    const globals = window as unknown as Record<string, () => void>;
    const solvedName = container.dataset['callback']!;
    expect(typeof globals[solvedName]).toBe('function');
    binding.afterReset();
    expect(button.disabled).toBe(true);
    globals[solvedName]!();
    expect(button.disabled).toBe(false);
    binding.dispose();
    expect(globals[solvedName]).toBeUndefined();
  });

  it('is never disabled when the provider rendered the widget before the form was bound (no solve would be heard)', () => {
    const { form, button } = setup(true);
    form.querySelector('[data-captcha-provider]')!.append(document.createElement('iframe'));
    const binding = bindSubmitToCaptcha(form, new CaptchaController({ globals: {}, log: () => {} }));
    expect(binding.wired).toBe(false);
    binding.afterReset();
    expect(button.disabled).toBe(false);
  });
});

describe('an unbound submit button', () => {
  it('stays enabled after a failed save resets the captcha', async () => {
    const resets: unknown[] = [];
    const grecaptcha: ExplicitCaptchaApi = { render: () => 'w', reset: (widget) => resets.push(widget ?? 'first') };
    const globals = window as unknown as { grecaptcha?: ExplicitCaptchaApi };
    globals.grecaptcha = grecaptcha;
    const { block, form, button } = setup(false);
    control(block, form, new CaptchaController({ log: () => {} }));
    form.requestSubmit();
    await settle();
    await settle();
    // Not rendered by the controller: the provider's own widget is reset as before.
    expect(resets).toEqual(['first']);
    expect(button.disabled).toBe(false);
  });
});
