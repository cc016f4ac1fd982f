import { afterEach, describe, expect, it } from 'vitest';
import { NATIVE_APP_GLOBAL, PROVIDES_ATTRIBUTE, inFrame, markNativeApp, nativeAppConsent, nativeAppMode, providedParts } from './detection';
import { fakeApp } from './test-support';

function at(url: string, extra: Record<string, unknown> = {}, top?: unknown): Window {
  const self = { location: { href: url }, ...extra } as Record<string, unknown>;
  self['self'] = self;
  self['top'] = top ?? self;
  return self as unknown as Window;
}

describe('native-app mode', () => {
  afterEach(() => document.documentElement.removeAttribute(PROVIDES_ATTRIBUTE));

  it('is detected by the message handler the app injects', () => {
    const app = fakeApp();
    expect(nativeAppMode(at('https://shop.example/', { [NATIVE_APP_GLOBAL]: app }))).toEqual({ kind: 'app', handler: app });
  });

  it('is the mobile-app web platform with platform=mobile-app and no handler', () => {
    expect(nativeAppMode(at('https://shop.example/?platform=mobile-app'))).toEqual({ kind: 'web-platform' });
    expect(nativeAppMode(at('https://shop.example/?platform=web'))).toEqual({ kind: 'none' });
    expect(nativeAppMode(at('https://shop.example/'))).toEqual({ kind: 'none' });
  });

  it('ignores a global that is not a handler', () => {
    expect(nativeAppMode(at('https://shop.example/', { [NATIVE_APP_GLOBAL]: { postMessage: 'x' } }))).toEqual({ kind: 'none' });
  });

  it('never holds inside a frame, even with the handler or the parameter', () => {
    const framed = at('https://shop.example/?platform=mobile-app', { [NATIVE_APP_GLOBAL]: fakeApp() }, {});
    expect(inFrame(framed)).toBe(true);
    expect(nativeAppMode(framed)).toEqual({ kind: 'none' });
    const crossOrigin = at('https://shop.example/');
    Object.defineProperty(crossOrigin, 'top', {
      get() {
        throw new DOMException('Blocked a frame', 'SecurityError');
      },
    });
    expect(inFrame(crossOrigin)).toBe(true);
  });

  it("takes the app's consent and the parts it provides only from the app", () => {
    const app = fakeApp('ios', { provides: ['header', 'cart', 'footer'], consent: 'declined' });
    expect(nativeAppConsent({ kind: 'app', handler: app })).toBe('declined');
    expect(nativeAppConsent({ kind: 'app', handler: fakeApp() })).toBeUndefined();
    expect(nativeAppConsent({ kind: 'web-platform' })).toBeUndefined();
    expect(providedParts({ kind: 'app', handler: app })).toEqual(['header', 'cart']);
    expect(providedParts({ kind: 'web-platform' })).toEqual([]);
  });

  it('marks the document so the stylesheet hides what the app provides', () => {
    markNativeApp(document, { kind: 'none' });
    expect(document.documentElement.hasAttribute(PROVIDES_ATTRIBUTE)).toBe(false);
    markNativeApp(document, { kind: 'app', handler: fakeApp('android', { provides: ['cart'] }) });
    expect(document.documentElement.getAttribute(PROVIDES_ATTRIBUTE)).toBe('cart');
  });
});
