//! The captcha controller of spec 001 against fake provider objects: render once per container, size by width, reset, destroy, and the verbatim errors.

import { afterEach, describe, expect, it } from 'vitest';
import { CaptchaController, DOCUMENT_DESTROYED, NOT_SET_UP, RENDER_ERROR, RENDERED_ATTRIBUTE, captchaSize, type ExplicitCaptchaApi } from './captcha-widgets';

/** A provider that records what it was asked, like the real APIs' explicit render. */
class FakeProvider implements ExplicitCaptchaApi {
  readonly renders: { container: HTMLElement; params: Record<string, unknown> }[] = [];
  readonly resets: unknown[] = [];
  readonly removed: unknown[] = [];
  render(container: HTMLElement, params: Record<string, unknown>): unknown {
    this.renders.push({ container, params });
    container.append(document.createElement('iframe'));
    return `widget-${this.renders.length}`;
  }
  reset(widget?: unknown): void {
    this.resets.push(widget);
  }
}

class FakeRemovableProvider extends FakeProvider {
  remove(widget: unknown): void {
    this.removed.push(widget);
  }
}

function container(provider = 'recaptcha', width = 400): HTMLElement {
  const element = document.createElement('div');
  element.dataset['captchaProvider'] = provider;
  element.dataset['sitekey'] = 'site-key';
  element.getBoundingClientRect = () => ({ width }) as DOMRect;
  document.body.append(element);
  return element;
}

function controller(globals: Record<string, ExplicitCaptchaApi>, logs: string[] = []): CaptchaController {
  return new CaptchaController({ globals, log: (message) => logs.push(message) });
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('captchaSize', () => {
  it('is compact under 320 px of container width and normal from 320 px', () => {
    expect(captchaSize(container('recaptcha', 319.5))).toBe('compact');
    expect(captchaSize(container('recaptcha', 320))).toBe('normal');
    expect(captchaSize(container('recaptcha', 1000))).toBe('normal');
  });
});

describe('CaptchaController', () => {
  it('renders into a container once, with its site key and size, and marks it rendered', async () => {
    const grecaptcha = new FakeProvider();
    const logs: string[] = [];
    const widgets = controller({ grecaptcha }, logs);
    const narrow = container('recaptcha', 300);
    expect(await widgets.render(narrow)).toBe('widget-1');
    expect(narrow.hasAttribute(RENDERED_ATTRIBUTE)).toBe(true);
    expect(widgets.isRendered(narrow)).toBe(true);
    expect(grecaptcha.renders[0]!.params).toMatchObject({ sitekey: 'site-key', size: 'compact' });

    expect(await widgets.render(narrow)).toBeUndefined();
    expect(grecaptcha.renders).toHaveLength(1);
    expect(logs).toEqual([RENDER_ERROR]);

    await widgets.render(container('recaptcha', 320));
    expect(grecaptcha.renders[1]!.params['size']).toBe('normal');
  });

  it('renders with the provider named by the container', async () => {
    const hcaptcha = new FakeProvider();
    const turnstile = new FakeProvider();
    const widgets = controller({ hcaptcha, turnstile });
    await widgets.render(container('turnstile'));
    expect([hcaptcha.renders.length, turnstile.renders.length]).toEqual([0, 1]);
  });

  it("logs 'Error rendering captcha into node' for a missing container, a detached one, or one marked rendered", async () => {
    const grecaptcha = new FakeProvider();
    const logs: string[] = [];
    const widgets = controller({ grecaptcha }, logs);
    expect(await widgets.render(null)).toBeUndefined();
    expect(await widgets.render(document.createElement('div'))).toBeUndefined();
    const marked = container();
    marked.setAttribute(RENDERED_ATTRIBUTE, '');
    expect(await widgets.render(marked)).toBeUndefined();
    expect(logs).toEqual([RENDER_ERROR, RENDER_ERROR, RENDER_ERROR]);
    expect(grecaptcha.renders).toHaveLength(0);
  });

  it('logs the render error when the provider itself refuses the node', async () => {
    const logs: string[] = [];
    const refusing: ExplicitCaptchaApi = {
      render: () => {
        throw new Error('reCAPTCHA has already been rendered in this element');
      },
      reset: () => {},
    };
    const element = container();
    expect(await controller({ grecaptcha: refusing }, logs).render(element)).toBeUndefined();
    expect(logs).toEqual([RENDER_ERROR]);
    expect(element.hasAttribute(RENDERED_ATTRIBUTE)).toBe(false);
  });

  it('passes the solve and expiry to the callbacks', async () => {
    const grecaptcha = new FakeProvider();
    const heard: string[] = [];
    await controller({ grecaptcha }).render(container(), { solved: (token) => heard.push(token), expired: () => heard.push('expired') });
    const params = grecaptcha.renders[0]!.params;
    (params['callback'] as (token: string) => void)('token-1');
    (params['expired-callback'] as () => void)();
    expect(heard).toEqual(['token-1', 'expired']);
  });

  it('resets the widget it rendered, and only that one', async () => {
    const grecaptcha = new FakeProvider();
    const widgets = controller({ grecaptcha });
    const first = container();
    const second = container();
    await widgets.render(first);
    await widgets.render(second);
    expect(widgets.reset(second)).toBe(true);
    expect(grecaptcha.resets).toEqual(['widget-2']);
    expect(widgets.reset(container())).toBe(false);
  });

  it('destroys a widget so its container can be rendered into again', async () => {
    const hcaptcha = new FakeRemovableProvider();
    const grecaptcha = new FakeProvider();
    const widgets = controller({ hcaptcha, grecaptcha });
    const removable = container('hcaptcha');
    await widgets.render(removable);
    expect(widgets.destroy(removable)).toBe(true);
    expect(hcaptcha.removed).toEqual(['widget-1']);
    expect(removable.hasAttribute(RENDERED_ATTRIBUTE)).toBe(false);
    expect(widgets.reset(removable)).toBe(false);
    expect(await widgets.render(removable)).toBe('widget-2');

    // reCAPTCHA cannot remove a widget: the controller empties the container instead.
    const plain = container('recaptcha');
    await widgets.render(plain);
    expect(widgets.destroy(plain)).toBe(true);
    expect(plain.childElementCount).toBe(0);
    expect(widgets.destroy(plain)).toBe(false);
  });

  it("rejects with 'ReCaptcha has not been set up!' when no provider is loaded", async () => {
    await expect(controller({}).render(container())).rejects.toThrow(NOT_SET_UP);
    await expect(controller({ hcaptcha: new FakeProvider() }).render(container('recaptcha'))).rejects.toThrow(NOT_SET_UP);
    await expect(new CaptchaController({ log: () => {} }).render(container())).rejects.toThrow('ReCaptcha has not been set up!');
  });

  it("rejects with 'Document was destroyed' when the document has no window any more", async () => {
    const gone = document.implementation.createHTMLDocument('gone');
    const element = gone.createElement('div');
    gone.body.append(element);
    const widgets = new CaptchaController({ document: gone, globals: { grecaptcha: new FakeProvider() } });
    await expect(widgets.render(element)).rejects.toThrow('Document was destroyed');
    expect(DOCUMENT_DESTROYED).toBe('Document was destroyed');
  });
});
