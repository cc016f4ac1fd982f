//! Tests of the owner area's "Activity in your open tabs" panel: shown and fed by the admin
//! channel only for the admin permission, newest first, bounded, never a network request, a
//! logout in another tab passed on and the owner area's own logout told to the other tabs.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionCode } from '../generated/enums';
import { RECENT_EVENTS_KEPT, openAdminChannel, type AdminChannel, type ChannelPort } from './admin-channel';
import { NO_ACTIVITY, TAB_ACTIVITY_SELECTOR, describeActivity, panelPermissions, startTabActivity } from './tab-activity';

/** Ports that deliver to each other (not to themselves), as BroadcastChannel does between tabs. */
function network(): (name: string) => ChannelPort {
  const ports: { listeners: ((event: MessageEvent) => void)[]; closed: boolean }[] = [];
  return () => {
    const port = { listeners: [] as ((event: MessageEvent) => void)[], closed: false };
    ports.push(port);
    return {
      postMessage: (message) => {
        for (const other of ports.filter((other) => other !== port && !other.closed)) {
          for (const listener of other.listeners) listener(new MessageEvent('message', { data: message }));
        }
      },
      addEventListener: (_type, listener) => port.listeners.push(listener),
      close: () => {
        port.closed = true;
      },
    };
  };
}

/** The panel as the server renders it for a role holding `codes`, and the owner area's logout form. */
function renderPanel(codes: readonly number[]): HTMLElement {
  document.body.innerHTML = `
    <form data-sign-out action="/config/sign-out" method="post"><button>Log out</button></form>
    <section data-tab-activity data-permissions="${codes.join(' ')}" hidden aria-labelledby="t">
      <h2 id="t">Activity in your open tabs</h2>
      <div role="log" aria-labelledby="t"><p data-tab-activity-empty></p><ol hidden></ol></div>
    </section>`;
  return document.querySelector<HTMLElement>(TAB_ACTIVITY_SELECTOR)!;
}

const ADMIN_ROLE = [PermissionCode.Admin, PermissionCode.Config, PermissionCode.ContentManager];
const pageView = (path: string, at: number) => ({ kind: 'analytics' as const, event: { name: 'page-view' as const, path, title: `Page ${path}`, at } });

function siteTab(open: (name: string) => ChannelPort): AdminChannel {
  return openAdminChannel(window, { permissions: ADMIN_ROLE, onSignedOut: () => undefined, open })!;
}

function listed(panel: HTMLElement): string[] {
  return [...panel.querySelectorAll('li')].map((item) => item.textContent!.replace(/^.*? (Viewed|Clicked)/, '$1'));
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

describe('the tab activity panel', () => {
  it('says what each event was', () => {
    expect(describeActivity({ name: 'page-view', path: '/shop', title: ' Shop ', at: 1 })).toBe('Viewed “Shop” at /shop');
    expect(describeActivity({ name: 'page-view', path: '/shop?page=2', title: '', at: 1 })).toBe('Viewed /shop?page=2');
    expect(describeActivity({ name: 'click', path: '/', label: 'Add to cart', position: null, at: 1 })).toBe('Clicked “Add to cart” on /');
    expect(describeActivity({ name: 'click', path: '/', label: '', position: { x: 0.1, y: 0.2 }, at: 1 })).toBe(
      'Clicked an unnamed link or button on /',
    );
  });

  it("reads the role's permission codes the server wrote", () => {
    const panel = renderPanel([1, 2, 3]);
    expect(panelPermissions(panel)).toEqual([1, 2, 3]);
    panel.dataset.permissions = ' 4  x ';
    expect(panelPermissions(panel)).toEqual([4]);
  });

  it("lists another tab's page views and clicks, newest first, with their time", () => {
    const open = network();
    const panel = renderPanel(ADMIN_ROLE);
    expect(startTabActivity(window, panel, { open })).toBeDefined();
    expect(panel.hidden).toBe(false);
    expect(panel.querySelector('[data-tab-activity-empty]')!.textContent).toBe(NO_ACTIVITY);
    expect(panel.querySelector('ol')!.hidden).toBe(true);

    const tab = siteTab(open);
    tab.send(pageView('/shop', Date.UTC(2026, 0, 2, 10, 30)));
    tab.send({ kind: 'analytics', event: { name: 'click', path: '/shop', label: 'Add to cart', position: null, at: Date.UTC(2026, 0, 2, 10, 31) } });
    expect(listed(panel)).toEqual(['Clicked “Add to cart” on /shop', 'Viewed “Page /shop” at /shop']);
    expect(panel.querySelector('time')!.dateTime).toBe('2026-01-02T10:31:00.000Z');
    expect(panel.querySelector<HTMLElement>('[data-tab-activity-empty]')!.hidden).toBe(true);
    expect(panel.querySelector('ol')!.hidden).toBe(false);
  });

  it('keeps only the latest events', () => {
    const open = network();
    const panel = renderPanel(ADMIN_ROLE);
    startTabActivity(window, panel, { open });
    const tab = siteTab(open);
    for (let at = 0; at < RECENT_EVENTS_KEPT + 5; at += 1) tab.send(pageView(`/p${at}`, at));
    const items = listed(panel);
    expect(items).toHaveLength(RECENT_EVENTS_KEPT);
    expect(items[0]).toBe(`Viewed “Page /p${RECENT_EVENTS_KEPT + 4}” at /p${RECENT_EVENTS_KEPT + 4}`);
    expect(items.at(-1)).toBe('Viewed “Page /p5” at /p5');
  });

  it('opens nothing and stays hidden for a role without the admin permission', () => {
    const open = vi.fn(network());
    const panel = renderPanel([PermissionCode.Config]);
    expect(startTabActivity(window, panel, { open })).toBeUndefined();
    expect(open).not.toHaveBeenCalled();
    expect(panel.hidden).toBe(true);
  });

  it('fetches nothing: the events stay in the browser', () => {
    const fetch = vi.spyOn(window, 'fetch');
    const open = network();
    startTabActivity(window, renderPanel(ADMIN_ROLE), { open });
    siteTab(open).send(pageView('/', 1));
    expect(fetch).not.toHaveBeenCalled();
  });

  it("passes another tab's logout on and tells the other tabs of the owner area's own", () => {
    const open = network();
    const signedOut = vi.fn();
    startTabActivity(window, renderPanel(ADMIN_ROLE), { open, onSignedOut: signedOut });
    const tabSignedOut = vi.fn();
    const tab = openAdminChannel(window, { permissions: ADMIN_ROLE, onSignedOut: tabSignedOut, open })!;
    tab.send({ kind: 'signed-out' });
    expect(signedOut).toHaveBeenCalledTimes(1);

    const form = document.querySelector<HTMLFormElement>('form[data-sign-out]')!;
    form.addEventListener('submit', (event) => event.preventDefault());
    form.requestSubmit();
    expect(tabSignedOut).toHaveBeenCalledTimes(1);
  });
});
