//! Tests of the admin broadcast channel and the mouse tracking it reads: opened only for the
//! admin permission, tracking only for a signed-in account, the envelope checked, a logout in one
//! tab reaching the others.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { PermissionCode } from '../generated/enums';
import {
  ADMIN_CHANNEL_NAME,
  RECENT_EVENTS_KEPT,
  decode,
  encode,
  openAdminChannel,
  opensAdminChannel,
  reportAdminActivity,
  type ChannelPort,
} from './admin-channel';
import { pagePosition, startMouseTracking } from './mouse-tracking';

/** Ports that deliver to each other (not to themselves), as BroadcastChannel does between tabs. */
function network() {
  const ports: { listeners: ((event: MessageEvent) => void)[]; name: string; closed: boolean }[] = [];
  const open = (name: string): ChannelPort => {
    const port = { listeners: [] as ((event: MessageEvent) => void)[], name, closed: false };
    ports.push(port);
    return {
      postMessage: (message) => {
        for (const other of ports) {
          if (other !== port && other.name === name && !other.closed) {
            for (const listener of other.listeners) listener(new MessageEvent('message', { data: message }));
          }
        }
      },
      addEventListener: (_type, listener) => port.listeners.push(listener),
      close: () => {
        port.closed = true;
      },
    };
  };
  return { open, ports };
}

const ADMIN = [PermissionCode.Admin, PermissionCode.Config, PermissionCode.ContentManager, PermissionCode.Settings, PermissionCode.Commerce];

describe('the admin broadcast channel', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('opens only for the admin permission', () => {
    expect(opensAdminChannel(ADMIN)).toBe(true);
    for (const permissions of [[], [PermissionCode.Config], [PermissionCode.Config, PermissionCode.Commerce, PermissionCode.Settings]]) {
      expect(opensAdminChannel(permissions)).toBe(false);
    }
    const { open, ports } = network();
    expect(openAdminChannel(window, { permissions: [PermissionCode.Config], onSignedOut: () => undefined, open })).toBeUndefined();
    expect(ports).toHaveLength(0);
    expect(openAdminChannel(window, { permissions: ADMIN, onSignedOut: () => undefined, open })).toBeDefined();
    expect(ports.map((port) => port.name)).toEqual([ADMIN_CHANNEL_NAME]);
  });

  it('tells the other tabs of a logout, and keeps the analytics events they send', () => {
    const { open } = network();
    const signedOut = vi.fn();
    const first = openAdminChannel(window, { permissions: ADMIN, onSignedOut: () => undefined, open })!;
    const second = openAdminChannel(window, { permissions: ADMIN, onSignedOut: signedOut, open })!;
    first.send({ kind: 'analytics', event: { name: 'page-view', path: '/shop', title: 'Shop', at: 5 } });
    expect(second.recentEvents()).toEqual([{ name: 'page-view', path: '/shop', title: 'Shop', at: 5 }]);
    expect(first.recentEvents()).toEqual([]);
    for (let at = 0; at < RECENT_EVENTS_KEPT + 5; at += 1) {
      first.send({ kind: 'analytics', event: { name: 'page-view', path: '/', title: '', at } });
    }
    expect(second.recentEvents()).toHaveLength(RECENT_EVENTS_KEPT);
    expect(second.recentEvents().at(-1)!.at).toBe(RECENT_EVENTS_KEPT + 4);
    first.send({ kind: 'signed-out' });
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('ignores anything that is not a message of its version', () => {
    expect(decode(encode({ kind: 'signed-out' }))).toEqual({ kind: 'signed-out' });
    for (const data of [
      { version: 1, message: { kind: 'signed-out' } },
      'not json',
      JSON.stringify({ version: 2, message: { kind: 'signed-out' } }),
      JSON.stringify({ version: 1, message: { kind: 'reload-everything' } }),
      JSON.stringify({ version: 1, message: { kind: 'analytics', event: { name: 'page-view' } } }),
      JSON.stringify({ version: 1, message: { kind: 'analytics', event: { name: 'scroll', path: '/', at: 1 } } }),
      // A page view without its title and a click without its label: the panel writes both out.
      JSON.stringify({ version: 1, message: { kind: 'analytics', event: { name: 'page-view', path: '/', at: 1 } } }),
      JSON.stringify({ version: 1, message: { kind: 'analytics', event: { name: 'click', path: '/', label: 7, at: 1 } } }),
      JSON.stringify(null),
    ]) {
      expect(decode(data)).toBeUndefined();
    }
  });

  it("reports the tab's page view and its clicks with the mouse position", () => {
    document.body.innerHTML = '<main><a href="#x">Shop <b>now</b></a><button aria-label="Open cart">🛒</button><p>text</p></main>';
    document.title = 'Home';
    const { open } = network();
    const sender = openAdminChannel(window, { permissions: ADMIN, onSignedOut: () => undefined, open })!;
    const receiver = openAdminChannel(window, { permissions: ADMIN, onSignedOut: () => undefined, open })!;
    const tracker = { position: () => ({ x: 0.25, y: 0.5 }), stop: () => undefined };
    const stop = reportAdminActivity(window, sender, tracker, () => 42);
    document.querySelector('b')!.click();
    document.querySelector('button')!.click();
    document.querySelector('p')!.click();
    stop();
    document.querySelector('button')!.click();
    const path = `${window.location.pathname}${window.location.search}`;
    expect(receiver.recentEvents()).toEqual([
      { name: 'page-view', path, title: 'Home', at: 42 },
      { name: 'click', path, label: 'Shop now', position: { x: 0.25, y: 0.5 }, at: 42 },
      { name: 'click', path, label: 'Open cart', position: { x: 0.25, y: 0.5 }, at: 42 },
    ]);
  });
});

describe('mouse position tracking', () => {
  it('does not start without a signed-in account', () => {
    const listen = vi.spyOn(document, 'addEventListener');
    expect(startMouseTracking(window, false)).toBeUndefined();
    expect(listen.mock.calls.filter(([type]) => type === 'pointermove')).toEqual([]);
    listen.mockRestore();
  });

  it('keeps the latest mouse position as fractions of the page, ignoring touch', () => {
    const tracker = startMouseTracking(window, true)!;
    expect(tracker.position()).toBeNull();
    const move = (pointerType: string, pageX: number, pageY: number) => {
      const event = new MouseEvent('pointermove', { bubbles: true });
      Object.defineProperties(event, { pointerType: { value: pointerType }, pageX: { value: pageX }, pageY: { value: pageY } });
      document.dispatchEvent(event);
    };
    Object.defineProperty(document.documentElement, 'scrollWidth', { configurable: true, value: 1000 });
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 4000 });
    move('mouse', 250, 1000);
    expect(tracker.position()).toEqual({ x: 0.25, y: 0.25 });
    move('touch', 900, 900);
    expect(tracker.position()).toEqual({ x: 0.25, y: 0.25 });
    tracker.stop();
    move('mouse', 500, 500);
    expect(tracker.position()).toEqual({ x: 0.25, y: 0.25 });
  });

  it('clamps positions to the page and survives an empty page', () => {
    expect(pagePosition(1200, -5, 1000, 1000)).toEqual({ x: 1, y: 0 });
    expect(pagePosition(10, 10, 0, 0)).toEqual({ x: 0, y: 0 });
    expect(pagePosition(1, 2, 3, 3)).toEqual({ x: 0.333, y: 0.667 });
  });
});
