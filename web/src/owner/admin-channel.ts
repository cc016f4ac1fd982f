//! The admin broadcast channel (001 s6): opened only for a signed-in account holding the admin
//! permission, it carries admin analytics events between that browser's tabs of the site. The
//! server does not count an owner's visits (000 s6), so these events are the one record of the
//! admin's own activity, and they never leave the browser: the page view of each tab and each
//! click on a link or button, with the mouse position when tracking runs. Beside them, a logout
//! in one tab tells the others, which reload as the visitor's page (signed out everywhere in the
//! browser). What other tabs show of the events is not given by the specification; Vitrine's
//! live-site tabs keep the latest ones for the owner's tools (`recentEvents`), and the owner
//! area's "Activity in your open tabs" panel (`tab-activity.ts`) lists them as they come.
//!
//! Messages are JSON strings in a versioned envelope, like the native-app bridge's; anything
//! else on the channel is ignored.

import { PermissionCode } from '../generated/enums';
import type { OwnerContext } from './live-site';
import { startMouseTracking, type MouseTracker, type PagePosition } from './mouse-tracking';

export const ADMIN_CHANNEL_NAME = 'vitrine-admin';
export const ADMIN_CHANNEL_VERSION = 1;
/** How many events a tab keeps of its sibling tabs. */
export const RECENT_EVENTS_KEPT = 50;
/** The longest label a click event carries. */
const MAX_LABEL = 80;

/** One admin analytics event. */
export type AdminAnalyticsEvent =
  | { readonly name: 'page-view'; readonly path: string; readonly title: string; readonly at: number }
  | { readonly name: 'click'; readonly path: string; readonly label: string; readonly position: PagePosition | null; readonly at: number };

export type AdminMessage = { readonly kind: 'analytics'; readonly event: AdminAnalyticsEvent } | { readonly kind: 'signed-out' };

/** What the channel needs of `BroadcastChannel`, so tests can pass a pair of their own. */
export interface ChannelPort {
  postMessage(message: string): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface AdminChannel {
  send(message: AdminMessage): void;
  /** The latest events the other tabs sent, oldest first. */
  recentEvents(): readonly AdminAnalyticsEvent[];
  close(): void;
}

/** Whether an account with these permission codes opens the channel: only the admin permission. */
export function opensAdminChannel(permissions: readonly number[]): boolean {
  return permissions.includes(PermissionCode.Admin);
}

export function encode(message: AdminMessage): string {
  return JSON.stringify({ version: ADMIN_CHANNEL_VERSION, message });
}

/** The message in `data`, or undefined for anything that is not one of this version's. */
export function decode(data: unknown): AdminMessage | undefined {
  if (typeof data !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { version, message } = parsed as { version?: unknown; message?: unknown };
  if (version !== ADMIN_CHANNEL_VERSION || typeof message !== 'object' || message === null) return undefined;
  const kind = (message as { kind?: unknown }).kind;
  if (kind === 'signed-out') return { kind };
  if (kind !== 'analytics') return undefined;
  const event = (message as { event?: unknown }).event as Partial<AdminAnalyticsEvent> | undefined;
  if (typeof event?.path !== 'string' || typeof event.at !== 'number') return undefined;
  if (event.name === 'page-view' && typeof event.title === 'string') return message as AdminMessage;
  if (event.name === 'click' && typeof event.label === 'string') return message as AdminMessage;
  return undefined;
}

export interface AdminChannelOptions {
  readonly permissions: readonly number[];
  /** Called when another tab logged out. */
  readonly onSignedOut: () => void;
  /** Called with each analytics event another tab sends, after it is kept. */
  readonly onEvent?: (event: AdminAnalyticsEvent) => void;
  /** Makes the port; the browser's `BroadcastChannel` by default. */
  readonly open?: (name: string) => ChannelPort;
}

/** Opens the channel for an admin; undefined for every other account and where browsers lack it. */
export function openAdminChannel(win: Window, options: AdminChannelOptions): AdminChannel | undefined {
  if (!opensAdminChannel(options.permissions)) return undefined;
  const open = options.open ?? ((name: string) => new (win as Window & typeof globalThis).BroadcastChannel(name));
  if (options.open === undefined && typeof (win as Window & typeof globalThis).BroadcastChannel !== 'function') return undefined;
  const port = open(ADMIN_CHANNEL_NAME);
  const recent: AdminAnalyticsEvent[] = [];
  port.addEventListener('message', (event) => {
    const message = decode(event.data);
    if (message === undefined) return;
    if (message.kind === 'signed-out') {
      options.onSignedOut();
      return;
    }
    recent.push(message.event);
    if (recent.length > RECENT_EVENTS_KEPT) recent.splice(0, recent.length - RECENT_EVENTS_KEPT);
    options.onEvent?.(message.event);
  });
  return {
    send: (message) => port.postMessage(encode(message)),
    recentEvents: () => [...recent],
    close: () => port.close(),
  };
}

/** The visible name of a clicked link or button, shortened. */
function labelOf(element: Element): string {
  const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
}

/**
 * Sends this tab's page view now and each click on a link or button from then on; returns a
 * function that stops listening. `tracker` gives the mouse position, when it runs.
 */
export function reportAdminActivity(win: Window, channel: AdminChannel, tracker: MouseTracker | undefined, now = () => Date.now()): () => void {
  const doc = win.document;
  const path = `${win.location.pathname}${win.location.search}`;
  channel.send({ kind: 'analytics', event: { name: 'page-view', path, title: doc.title, at: now() } });
  const onClick = (event: Event): void => {
    const target = (event.target as Element | null)?.closest?.('a, button');
    if (target == null) return;
    channel.send({
      kind: 'analytics',
      event: { name: 'click', path, label: labelOf(target), position: tracker?.position() ?? null, at: now() },
    });
  };
  doc.addEventListener('click', onClick, { capture: true });
  return () => doc.removeEventListener('click', onClick, { capture: true });
}

/**
 * Starts the admin's tools of a signed-in tab: the channel (admin permission only), the mouse
 * tracking its click events read (signed-in accounts only, through the gating rule), and the
 * reload when another tab logs out. Undefined for every account without the admin permission:
 * nothing is opened or listened to for them.
 */
export async function startAdminChannel(win: Window, owner: Pick<OwnerContext, 'authenticatedAccount' | 'permissions'>): Promise<AdminChannel | undefined> {
  const channel = openAdminChannel(win, { permissions: owner.permissions, onSignedOut: () => win.location.reload() });
  if (channel === undefined) return undefined;
  const tracker = startMouseTracking(win, owner.authenticatedAccount != null);
  reportAdminActivity(win, channel, tracker);
  return channel;
}
