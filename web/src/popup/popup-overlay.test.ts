import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CONSENT_EVENT } from '../consent/banner-markup';
import { DAY_MS, type PopupRecord, type PopupSettings } from './rules';
import { FORM_SUBMITTED_EVENT, startPopupOverlay } from './popup-overlay';
import type { PopupRecordStore } from './storage';

const settings: PopupSettings = { style: 'full', version: 2, showUntilSignup: true, displayFrequency: 7, enableMobile: true };
const page = { notFound: false, lockScreen: false, screenshot: false, mobile: false };

function memoryStore(initial: PopupRecord | null = null): PopupRecordStore & { record: PopupRecord | null } {
  const store = {
    record: initial,
    read: () => store.record,
    write: (record: PopupRecord) => {
      store.record = record;
    },
  };
  return store;
}

describe('popup overlay', () => {
  let fetchSpy: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    document.body.innerHTML = `<dialog data-vitrine-popup-overlay aria-labelledby="popup-title"><h2 id="popup-title">Join</h2>
      <form></form><button type="button" data-popup-close>Close</button></dialog>`;
    fetchSpy = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchSpy);
    // The page already holds a crumb, so census events go out at once.
    document.cookie = 'crumb=c1; path=/';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.cookie = 'crumb=; Max-Age=0; path=/';
  });

  const dialog = () => document.querySelector('dialog')!;
  const events = () => fetchSpy.mock.calls.map((call) => JSON.parse((call[1] as RequestInit).body as string).event as string);

  it('opens, records the close, and returns after displayFrequency days', () => {
    let now = 1_000;
    const store = memoryStore();
    expect(startPopupOverlay({ window, settings, page, store, now: () => now })).toEqual({ decision: 'show' });
    expect(dialog().hasAttribute('open')).toBe(true);
    document.querySelector<HTMLButtonElement>('[data-popup-close]')!.click();
    expect(dialog().hasAttribute('open')).toBe(false);
    expect(store.record).toEqual({ 'date-closed': 1_000, version: 2, submitted: false });
    now = 1_000 + 7 * DAY_MS - 1;
    expect(startPopupOverlay({ window, settings, page, store, now: () => now })).toEqual({ decision: 'hide', reason: 'recently-closed' });
    now = 1_000 + 7 * DAY_MS;
    expect(startPopupOverlay({ window, settings, page, store, now: () => now })).toEqual({ decision: 'show' });
    expect(events()).toEqual(['show', 'close', 'show']);
  });

  it('waits for the consent decision instead of opening over the banner', () => {
    document.body.insertAdjacentHTML('beforeend', '<section data-vitrine-cookie-banner></section>');
    const store = memoryStore();
    expect(startPopupOverlay({ window, settings, page, store })).toEqual({ decision: 'hide', reason: 'banner-pending' });
    expect(dialog().hasAttribute('open')).toBe(false);
    document.querySelector('[data-vitrine-cookie-banner]')!.remove();
    window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { choice: 'accepted' } }));
    expect(dialog().hasAttribute('open')).toBe(true);
  });

  it('stays away after a signup when showUntilSignup is set', () => {
    const store = memoryStore();
    startPopupOverlay({ window, settings, page, store, now: () => 5 });
    dialog().dispatchEvent(new CustomEvent(FORM_SUBMITTED_EVENT));
    expect(store.record).toEqual({ 'date-closed': 5, version: 2, submitted: true });
    expect(startPopupOverlay({ window, settings, page, store, now: () => 100 * DAY_MS })).toEqual({ decision: 'hide', reason: 'submitted' });
    expect(events()).toContain('submit');
  });

  it('mounts its newsletter island only when it opens', () => {
    document.body.innerHTML = `<section data-vitrine-cookie-banner></section><dialog data-vitrine-popup-overlay aria-label="Site">
      <div id="letter" data-popup-island="newsletter" data-island-props="{}"><form></form></div></dialog>`;
    const scanIslands = vi.fn();
    vi.stubGlobal('Vitrine', { scanIslands });
    const block = () => document.getElementById('letter')!;
    startPopupOverlay({ window, settings, page, store: memoryStore() });
    expect(block().hasAttribute('data-island')).toBe(false);
    expect(scanIslands).not.toHaveBeenCalled();
    document.querySelector('[data-vitrine-cookie-banner]')!.remove();
    window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { choice: 'declined' } }));
    expect(block().getAttribute('data-island')).toBe('newsletter');
    expect(block().hasAttribute('data-popup-island')).toBe(false);
    expect(scanIslands).toHaveBeenCalledTimes(1);
  });

  it('records a signup announced by the form block inside it', () => {
    document.body.innerHTML = `<dialog data-vitrine-popup-overlay aria-label="Site"><div id="letter"><form></form></div></dialog>`;
    const store = memoryStore();
    startPopupOverlay({ window, settings, page, store, now: () => 9 });
    document.getElementById('letter')!.dispatchEvent(new CustomEvent(FORM_SUBMITTED_EVENT, { bubbles: true }));
    expect(store.record).toEqual({ 'date-closed': 9, version: 2, submitted: true });
  });
});
