//! Tests of the overlays manager: what it lists, and that a preview touches nothing of the
//! visitor's (no consent cookie, no receipt or census request, no popup record).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEscapeRegistry } from '../runtime/escape-registry';
import { POPUP_RECORD_KEY } from '../popup/storage';
import { CONSENT_COOKIE } from '../consent/consent-state';
import { snapshotOverlays } from './live-site';
import { NO_OVERLAYS, OVERLAYS_MANAGER_LABEL, PREVIEW_NOTE, collectOverlays, previewCopy, showOverlaysManager } from './overlays-manager';

const POPUP = `<dialog class="popup-overlay" data-vitrine-popup-overlay aria-labelledby="popup-title">
  <h2 id="popup-title">Join our list</h2>
  <form action="/api/form/newsletter" method="post"><label for="popup-email">Email</label><input id="popup-email" name="email">
  <div data-popup-island="newsletter"></div><button type="submit">Sign up</button></form>
  <button type="button" data-popup-close>Close</button></dialog>`;
const BANNER = `<section class="cookie-banner" data-vitrine-cookie-banner role="region" aria-label="Cookie consent"
  aria-describedby="cookie-banner-text" tabindex="-1" hidden><p id="cookie-banner-text">We use cookies</p>
  <button type="button" data-consent="accept">Accept</button><button type="button" data-consent="decline">Decline</button></section>`;

const escapeKey = () => new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });

describe('the overlays manager', () => {
  let fetchSpy: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    document.body.innerHTML = `<main id="main">page</main>${POPUP}${BANNER}`;
    fetchSpy = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchSpy);
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function start() {
    const escape = createEscapeRegistry();
    const stop = escape.listen(document);
    const overlays = collectOverlays(snapshotOverlays(document));
    // The banner of a visitor who answered already is gone before the manager loads.
    document.querySelector('[data-vitrine-cookie-banner]')!.remove();
    const panel = showOverlaysManager(window, escape, overlays);
    return { escape, stop, panel, toggle: panel.querySelector('button')! };
  }

  it('lists the popup overlay and the cookie banner the page has, even a banner already removed', () => {
    const { panel, toggle, stop } = start();
    expect(panel.getAttribute('aria-label')).toBe(OVERLAYS_MANAGER_LABEL);
    expect(toggle.textContent).toBe('Overlays (2)');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.click();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const buttons = [...panel.querySelectorAll<HTMLButtonElement>('li button')].map((button) => button.textContent);
    expect(buttons).toEqual(['Preview popup overlay', 'Preview cookie banner']);
    stop();
  });

  it('says so when the page has neither', () => {
    document.body.innerHTML = '<main>page</main>';
    const panel = showOverlaysManager(window, createEscapeRegistry(), collectOverlays(snapshotOverlays(document)));
    expect(panel.querySelector('button')!.textContent).toBe('Overlays (0)');
    expect(panel.querySelector('li')!.textContent).toBe(NO_OVERLAYS);
  });

  it('closes its list with Escape through the registry and gives focus back to its button', () => {
    const { toggle, escape, stop } = start();
    toggle.click();
    expect(escape.size).toBe(1);
    document.dispatchEvent(escapeKey());
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById('owner-overlays-list')!.hidden).toBe(true);
    expect(document.activeElement).toBe(toggle);
    expect(escape.size).toBe(0);
    stop();
  });

  it('previews the banner without consent, receipt or census, and Escape closes the preview', () => {
    const { panel, toggle, escape, stop } = start();
    toggle.click();
    panel.querySelector<HTMLButtonElement>('[data-preview-overlay="cookie-banner"]')!.click();
    const preview = document.querySelector<HTMLElement>('[data-overlay-preview]')!;
    expect(preview.hidden).toBe(false);
    expect(preview.textContent).toContain(PREVIEW_NOTE);
    expect(preview.getAttribute('role')).toBe('dialog');
    expect(preview.hasAttribute('data-vitrine-cookie-banner')).toBe(false);
    expect(preview.getAttribute('aria-describedby')).toBe('overlay-preview-cookie-banner-text');
    expect(preview.querySelector('#overlay-preview-cookie-banner-text')).not.toBeNull();
    preview.querySelector<HTMLButtonElement>('[data-preview-consent]')!.click();
    expect(document.querySelector('[data-overlay-preview]')).toBeNull();
    expect(document.cookie).not.toContain(CONSENT_COOKIE);
    expect(fetchSpy).not.toHaveBeenCalled();
    panel.querySelector<HTMLButtonElement>('[data-preview-overlay="cookie-banner"]')!.click();
    expect(escape.size).toBe(0);
    stop();
  });

  it('previews the popup overlay without recording a dismissal or posting its form', () => {
    const { panel, toggle, stop } = start();
    toggle.click();
    panel.querySelector<HTMLButtonElement>('[data-preview-overlay="popup-overlay"]')!.click();
    const preview = document.querySelector<HTMLElement>('dialog[data-overlay-preview]')!;
    expect(preview.hasAttribute('open')).toBe(true);
    expect(preview.querySelector('[data-popup-island], [data-island]')).toBeNull();
    expect(preview.querySelector('form')!.hasAttribute('action')).toBe(false);
    expect(preview.querySelector('label')!.getAttribute('for')).toBe('overlay-preview-popup-email');
    preview.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(document.querySelector('[data-overlay-preview]')).toBeNull();
    // The real dialog stays closed and nothing was stored or sent.
    expect(document.querySelector('[data-vitrine-popup-overlay]')!.hasAttribute('open')).toBe(false);
    expect(window.localStorage.getItem(POPUP_RECORD_KEY)).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
    stop();
  });

  it('makes copies the visitor runtime cannot find', () => {
    const template = document.querySelector<HTMLElement>('[data-vitrine-popup-overlay]')!;
    const copy = previewCopy(template);
    expect(copy.matches('[data-vitrine-popup-overlay]')).toBe(false);
    expect(copy.querySelector('[data-popup-close]')).toBeNull();
    expect(copy.querySelector('[data-preview-popup-close]')).not.toBeNull();
    expect(copy.getAttribute('aria-labelledby')).toBe('overlay-preview-popup-title');
  });
});
