//! The announcement bar a signed-in owner or editor sees on the live site (000 s1, s3, when the
//! owner context says showAnnouncementBar): who is signed in, that the visit is a preview that
//! is not counted, a way to the configuration area, and logging out. Its texts are not given by
//! the specification; these are Vitrine's. A chunk of its own, loaded only for such an account.

import { configUrl, framePath, logout, type OwnerContext } from './live-site';

export const ANNOUNCEMENT_BAR_LABEL = 'Owner tools';
export const PREVIEW_NOTICE = 'Preview: you are signed in, so this visit is not counted in your analytics.';

/** Puts the bar at the top of the page; returns it, or undefined when it is not for this account. */
export function showAnnouncementBar(win: Window & typeof globalThis, owner: OwnerContext): HTMLElement | undefined {
  if (!owner.showAnnouncementBar || owner.authenticatedAccount == null) return undefined;
  const doc = win.document;
  const bar = doc.createElement('aside');
  bar.className = 'owner-announcement-bar';
  bar.setAttribute('aria-label', ANNOUNCEMENT_BAR_LABEL);
  const notice = doc.createElement('p');
  notice.textContent = PREVIEW_NOTICE;
  const open = doc.createElement('a');
  open.href = configUrl(framePath(win.location));
  open.textContent = 'Open the owner area';
  const out = doc.createElement('button');
  out.type = 'button';
  out.textContent = 'Log out';
  out.addEventListener('click', () => void logout(win, owner));
  bar.append(notice, open, out);
  // After the skip link, which must stay the page's first stop for keyboard users.
  const skip = doc.querySelector('body > .skip-link');
  if (skip) skip.after(bar);
  else doc.body.prepend(bar);
  return bar;
}
