//! The "Activity in your open tabs" panel of `/config/`: the one consumer of the admin broadcast
//! channel's analytics events (001 s6) beyond the live-site tabs themselves. The server renders
//! the panel, hidden, only for an account holding the admin permission, and writes the role's
//! permission codes on it; this module opens the channel through the same gate as the site's
//! tabs (`openAdminChannel`), shows the panel, and lists each page view and click the admin's
//! other tabs of the site report, newest first. Nothing is fetched or sent: the events live in
//! this tab only, and the panel starts empty each time `/config/` loads. A logout in another tab
//! reloads this one (the sign-in form), and the owner area's own "Log out" tells the other tabs.

import { type AdminAnalyticsEvent, type AdminChannel, type ChannelPort, RECENT_EVENTS_KEPT, openAdminChannel } from './admin-channel';

/** The panel as the server renders it. */
export const TAB_ACTIVITY_SELECTOR = '[data-tab-activity]';
/** Shown while no other tab has reported anything. */
export const NO_ACTIVITY = 'Nothing yet. Open your site in another tab of this browser: its pages and clicks appear here.';

/** What the panel says of one event. */
export function describeActivity(event: AdminAnalyticsEvent): string {
  if (event.name === 'page-view') {
    const title = event.title.trim();
    return title === '' ? `Viewed ${event.path}` : `Viewed “${title}” at ${event.path}`;
  }
  const label = event.label === '' ? 'an unnamed link or button' : `“${event.label}”`;
  return `Clicked ${label} on ${event.path}`;
}

/** The panel's permission codes, as the server wrote them (`data-permissions="1 2 3"`). */
export function panelPermissions(panel: HTMLElement): number[] {
  return (panel.dataset.permissions ?? '')
    .split(/\s+/)
    .filter((code) => code !== '')
    .map(Number)
    .filter(Number.isInteger);
}

function entry(doc: Document, event: AdminAnalyticsEvent): HTMLLIElement {
  const item = doc.createElement('li');
  const time = doc.createElement('time');
  const at = new Date(event.at);
  time.dateTime = at.toISOString();
  time.textContent = at.toLocaleTimeString(doc.documentElement.lang || undefined);
  item.append(time, ` ${describeActivity(event)}`);
  return item;
}

export interface TabActivityOptions {
  /** Makes the channel's port; the browser's `BroadcastChannel` by default. */
  readonly open?: (name: string) => ChannelPort;
  /** What a logout in another tab does; reloading this page by default. */
  readonly onSignedOut?: () => void;
}

/**
 * Opens the channel for `panel`, shows it and keeps its list; undefined (the panel stays hidden)
 * for an account without the admin permission or a browser without broadcast channels.
 */
export function startTabActivity(win: Window, panel: HTMLElement, options: TabActivityOptions = {}): AdminChannel | undefined {
  const doc = win.document;
  const list = panel.querySelector('ol');
  const empty = panel.querySelector<HTMLElement>('[data-tab-activity-empty]');
  if (list === null) return undefined;
  const show = (event: AdminAnalyticsEvent): void => {
    list.prepend(entry(doc, event));
    while (list.children.length > RECENT_EVENTS_KEPT) list.lastElementChild?.remove();
    list.hidden = false;
    if (empty !== null) empty.hidden = true;
  };
  const channel = openAdminChannel(win, {
    permissions: panelPermissions(panel),
    onSignedOut: options.onSignedOut ?? (() => win.location.reload()),
    onEvent: show,
    ...(options.open === undefined ? {} : { open: options.open }),
  });
  if (channel === undefined) return undefined;
  if (empty !== null) empty.textContent = NO_ACTIVITY;
  panel.hidden = false;
  // The owner area's own logout signs the site's tabs out too (same cookies): tell them, as a
  // logout on the live site does.
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[data-sign-out]')) {
    form.addEventListener('submit', () => channel.send({ kind: 'signed-out' }));
  }
  return channel;
}
