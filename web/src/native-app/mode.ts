//! Native-app mode's lazy chunk, loaded only when the page runs in the app or on the mobile-app
//! web platform: it creates the bridge client, publishes it as `window.VitrineBridge`, and keeps
//! the app told about the page (`info` on load and whenever the cart changes), so the app's own
//! cart badge follows the cart.

import { CART_UPDATED_EVENT, type CartFigures } from '../cart/events';
import { PageTypeName } from '../generated/enums';
import type { PageContext } from '../runtime/page-context';
import { createBridgeClient, type BridgeClient, type InfoReport } from './bridge-client';
import { inFrame, type NativeAppMode } from './detection';

/** Where the page's bridge client is published for the site's other scripts. */
export const BRIDGE_CLIENT_GLOBAL = 'VitrineBridge';

function experimentsOf(context: PageContext): Record<string, string> {
  const experiments = context['experiments'];
  if (typeof experiments !== 'object' || experiments === null) return {};
  return Object.fromEntries(Object.entries(experiments).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** What `info` reports: the page's type, the cart count, whether a site user is signed in, locale and experiments. */
export function infoReport(context: PageContext, cartCount: number): InfoReport {
  const code = Number(context['pageType']);
  const name = (PageTypeName as Readonly<Record<number, string>>)[code];
  const account = context['authenticatedAccount'];
  return {
    pageType: name ?? 'Unknown',
    cartCount: Math.max(0, Math.floor(cartCount)),
    signedIn: account !== null && account !== undefined,
    locale: typeof context['websiteLocale'] === 'string' ? context['websiteLocale'] : 'en-US',
    experiments: experimentsOf(context),
  };
}

/** The cart count the header's indicator shows, 0 before the cart has loaded. */
function shownCartCount(doc: Document): number {
  const items = Number(doc.querySelector<HTMLElement>('[data-cart-indicator]')?.dataset['items']);
  return Number.isFinite(items) ? items : 0;
}

export function startNativeAppMode(win: Window & typeof globalThis, mode: NativeAppMode, context: PageContext): BridgeClient {
  const client = createBridgeClient({ window: win, mode, inFrame: inFrame(win) });
  Object.defineProperty(win, BRIDGE_CLIENT_GLOBAL, {
    value: Object.freeze({ info: client.info, dismiss: client.dismiss, call: client.call }),
    configurable: true,
    enumerable: false,
    writable: false,
  });
  if (mode.kind !== 'app') return client;
  const tell = (cartCount: number) =>
    client.info(infoReport(context, cartCount)).catch((error: unknown) => console.warn('Vitrine: the app did not take info.', error));
  void tell(shownCartCount(win.document));
  win.addEventListener(CART_UPDATED_EVENT, (event) => {
    const detail = (event as CustomEvent<CartFigures>).detail;
    if (typeof detail?.items === 'number') void tell(detail.items);
  });
  return client;
}
