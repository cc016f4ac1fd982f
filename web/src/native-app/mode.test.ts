import { afterEach, describe, expect, it, vi } from 'vitest';
import { CART_UPDATED_EVENT } from '../cart/events';
import { BRIDGE_CLIENT_GLOBAL, infoReport, startNativeAppMode } from './mode';
import { fakeApp } from './test-support';

afterEach(() => {
  delete (window as unknown as Record<string, unknown>)[BRIDGE_CLIENT_GLOBAL];
  document.body.innerHTML = '';
});

describe('the info report', () => {
  it('names the page type and reads the page context', () => {
    const context = { pageType: 200, websiteLocale: 'de-DE', authenticatedAccount: { id: 'u' }, experiments: { a: 'x', b: 2 } };
    expect(infoReport(context, 3.7)).toEqual({ pageType: 'ShowCart', cartCount: 3, signedIn: true, locale: 'de-DE', experiments: { a: 'x' } });
    expect(infoReport({}, -1)).toEqual({ pageType: 'Unknown', cartCount: 0, signedIn: false, locale: 'en-US', experiments: {} });
  });
});

describe('native-app mode', () => {
  it("tells the app the page's report at start and again when the cart changes", () => {
    document.body.innerHTML = '<a data-cart-indicator data-items="4"></a>';
    const app = fakeApp();
    startNativeAppMode(window, { kind: 'app', handler: app }, { pageType: 2 });
    window.dispatchEvent(new CustomEvent(CART_UPDATED_EVENT, { detail: { items: 5, subtotal: '' } }));
    const counts = app.posted.map((message) => (JSON.parse(message) as { payload: { cartCount: number } }).payload.cartCount);
    expect(counts).toEqual([4, 5]);
  });

  it('publishes the client, and on the web platform tells the app nothing', async () => {
    const warn = vi.spyOn(console, 'warn');
    startNativeAppMode(window, { kind: 'web-platform' }, {});
    const published = (window as unknown as Record<string, { info: (r: unknown) => Promise<unknown> }>)[BRIDGE_CLIENT_GLOBAL];
    await expect(published!.info({})).resolves.toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });
});
