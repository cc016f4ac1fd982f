//! Tests of the owner's side of the live site: addresses, the shortcuts and the page context.

import { describe, expect, it, vi } from 'vitest';
import { createEscapeRegistry } from '../runtime/escape-registry';
import {
  afterLogoutUrl,
  configUrl,
  installOwnerShortcuts,
  type OwnerContext,
  rememberNoRedirect,
  withOwner,
} from './live-site';

const escape = (init: KeyboardEventInit = {}) =>
  new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true, ...init });

const owner: OwnerContext = {
  authenticatedAccount: { id: 'a1' },
  websiteRoles: { admin: 1 },
  permissions: [2, 1, 11, 12, 14],
  showAnnouncementBar: true,
  ownerExtras: true,
  csrfToken: 'csrf-1',
  configUrl: '/config/?frameUrl=%2F',
  redirectTo: null,
  reservationPreviewAlert: 'Preview Only: Please log out of your provider account in order to use the reservation block.',
};

/** A window whose location and fetch the test watches. */
function fakeWindow(search = '') {
  const assign = vi.fn();
  const fetch = vi.fn(async () => new Response(null, { status: 204 }));
  document.cookie = 'crumb=c1; Path=/';
  const win = {
    document,
    fetch,
    sessionStorage: window.sessionStorage,
    location: { pathname: '/shop', search, hash: '', href: `https://example.com/shop${search}`, assign },
  } as unknown as Window & typeof globalThis;
  return { win, assign, fetch };
}

describe('the owner on the live site', () => {
  it('encodes the frame URL as 000 s2 says and returns after logout with logout=true', () => {
    expect(configUrl('/shop?q=a b')).toBe('/config/?frameUrl=%2Fshop%3Fq%3Da%20b');
    expect(afterLogoutUrl({ pathname: '/shop', search: '?page=2', hash: '#top' })).toBe('/shop?page=2&logout=true#top');
  });

  it('opens the configuration area on Escape when signed in', () => {
    const { win, assign } = fakeWindow('?page=2');
    const registry = createEscapeRegistry();
    installOwnerShortcuts(win, registry, owner, false);
    registry.handleKeydown(escape());
    expect(assign).toHaveBeenCalledWith('/config/?frameUrl=%2Fshop%3Fpage%3D2');
  });

  it('closes the topmost registered target before anything else', () => {
    const { win, assign } = fakeWindow();
    const registry = createEscapeRegistry();
    installOwnerShortcuts(win, registry, owner, false);
    const dialog = { close: vi.fn() };
    registry.register(dialog);
    registry.handleKeydown(escape());
    expect(dialog.close).toHaveBeenCalledTimes(1);
    expect(assign).not.toHaveBeenCalled();
  });

  it('lets an anonymous visitor open it only when useEscapeKeyToLogin is on', () => {
    const off = fakeWindow();
    const offRegistry = createEscapeRegistry();
    installOwnerShortcuts(off.win, offRegistry, undefined, false);
    offRegistry.handleKeydown(escape());
    expect(off.assign).not.toHaveBeenCalled();
    const on = fakeWindow();
    const onRegistry = createEscapeRegistry();
    installOwnerShortcuts(on.win, onRegistry, undefined, true);
    onRegistry.handleKeydown(escape());
    expect(on.assign).toHaveBeenCalledWith('/config/?frameUrl=%2Fshop');
  });

  it('logs out on Shift+Escape with the session CSRF token, and does nothing without an account', async () => {
    const { win, assign, fetch } = fakeWindow();
    const registry = createEscapeRegistry();
    installOwnerShortcuts(win, registry, owner, false);
    registry.handleKeydown(escape({ shiftKey: true }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/shop?logout=true'));
    expect(fetch).toHaveBeenCalledWith('/api/auth/Logout?crumb=c1', expect.objectContaining({ method: 'POST', headers: { 'X-Owner-CSRF-Token': 'csrf-1' } }));
    const anonymous = fakeWindow();
    const anonymousRegistry = createEscapeRegistry();
    installOwnerShortcuts(anonymous.win, anonymousRegistry, undefined, true);
    anonymousRegistry.handleKeydown(escape({ shiftKey: true }));
    expect(anonymous.fetch).not.toHaveBeenCalled();
    expect(anonymous.assign).not.toHaveBeenCalled();
  });

  it('remembers noredirect for the browser session', () => {
    window.sessionStorage.clear();
    expect(rememberNoRedirect(fakeWindow('').win)).toBe(false);
    expect(rememberNoRedirect(fakeWindow('?noredirect').win)).toBe(true);
    expect(rememberNoRedirect(fakeWindow('').win)).toBe(true);
  });

  it('puts the account and its roles into the page context only for a signed-in account', () => {
    const context = { authenticatedAccount: null, websiteRoles: {}, pageType: 2 };
    expect(withOwner(context, owner)).toMatchObject({ authenticatedAccount: { id: 'a1' }, websiteRoles: { admin: 1 }, showAnnouncementBar: true, pageType: 2 });
    expect(withOwner(context, { ...owner, authenticatedAccount: null })).toBe(context);
  });
});
