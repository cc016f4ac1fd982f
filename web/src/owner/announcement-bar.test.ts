//! Tests of the owner's announcement bar.

import { describe, expect, it } from 'vitest';
import { ANNOUNCEMENT_BAR_LABEL, PREVIEW_NOTICE, showAnnouncementBar } from './announcement-bar';
import type { OwnerContext } from './live-site';

const owner: OwnerContext = {
  authenticatedAccount: { id: 'a1' },
  websiteRoles: { editor: 4 },
  permissions: [1, 11],
  showAnnouncementBar: true,
  ownerExtras: true,
  csrfToken: 'csrf-1',
  configUrl: '/config/?frameUrl=%2F',
  redirectTo: null,
  reservationPreviewAlert: null,
};

describe('the announcement bar', () => {
  it('shows an owner or editor the preview notice and the way to the owner area', () => {
    document.body.innerHTML = '<main>page</main>';
    const bar = showAnnouncementBar(window, owner)!;
    expect(bar.getAttribute('aria-label')).toBe(ANNOUNCEMENT_BAR_LABEL);
    expect(document.body.firstElementChild).toBe(bar);
    expect(bar.textContent).toContain(PREVIEW_NOTICE);
    expect(bar.querySelector('a')!.getAttribute('href')).toBe(`/config/?frameUrl=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  });

  it('is not shown to a viewer, who is treated like a visitor', () => {
    document.body.innerHTML = '<main>page</main>';
    expect(showAnnouncementBar(window, { ...owner, websiteRoles: { viewer: 10 }, showAnnouncementBar: false, ownerExtras: false })).toBeUndefined();
    expect(document.querySelector('aside')).toBeNull();
  });
});
