//! Popups on <dialog> in jsdom: each way to hide one answers as the spec says, and they go
//! through the overlay coordinator.

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEscapeRegistry } from '../runtime/escape-registry';
import { createOverlayCoordinator } from '../runtime/overlay-coordinator';
import { showPopup } from './popups';

beforeAll(() => {
  // jsdom's <dialog> lacks the modal methods; these behave as the browser's do for the popup.
  const proto = HTMLDialogElement.prototype as unknown as Record<string, unknown>;
  proto['showModal'] ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto['close'] ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

function host() {
  const escape = createEscapeRegistry();
  const overlays = createOverlayCoordinator({ document, escape });
  return { escape, overlays, host: { window, overlays } };
}

const dialog = () => document.querySelector<HTMLDialogElement>('dialog.vitrine-popup');

describe('popups', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('a confirmation answers confirm or reject from its buttons', async () => {
    const { host: h } = host();
    const confirmed = showPopup(h, { kind: 'confirmation', title: 'Leave?', message: 'Sure?' });
    expect(dialog()?.getAttribute('role')).toBe('alertdialog');
    const buttons = [...dialog()!.querySelectorAll('button')].map((b) => b.textContent);
    expect(buttons).toEqual(['Cancel', 'OK']);
    dialog()!.querySelector<HTMLButtonElement>('[data-popup-response="confirm"]')!.click();
    await expect(confirmed).resolves.toBe('confirm');
    expect(dialog()).toBeNull();
    const rejected = showPopup(h, { kind: 'confirmation', title: 'Leave?', message: 'Sure?' });
    dialog()!.querySelector<HTMLButtonElement>('[data-popup-response="reject"]')!.click();
    await expect(rejected).resolves.toBe('reject');
  });

  it('Escape through the registry, and an overlay click, cancel it', async () => {
    const { escape, host: h, overlays } = host();
    const alert = showPopup(h, { kind: 'alert', title: 'Note', message: 'Hello' });
    expect(overlays.shown).toEqual(['popup']);
    escape.handleKeydown(new KeyboardEvent('keydown', { key: 'Escape' }));
    await expect(alert).resolves.toBe('cancel');
    expect(overlays.shown).toEqual([]);
    const again = showPopup(h, { kind: 'alert', title: 'Note', message: 'Hello' });
    dialog()!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await expect(again).resolves.toBe('cancel');
    // A click inside the panel is not an overlay click.
    const third = showPopup(h, { kind: 'alert', title: 'Note', message: 'Hello' });
    dialog()!.querySelector('p')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(dialog()).not.toBeNull();
    dialog()!.dispatchEvent(new Event('cancel', { cancelable: true }));
    await expect(third).resolves.toBe('cancel');
  });

  it('information hides by itself after 2000 ms; a timer hides any popup', async () => {
    vi.useFakeTimers();
    const { host: h } = host();
    const info = showPopup(h, { kind: 'information', title: 'Hours', message: '10 to 6' });
    expect(dialog()!.querySelectorAll('button')).toHaveLength(0);
    vi.advanceTimersByTime(1999);
    expect(dialog()).not.toBeNull();
    vi.advanceTimersByTime(1);
    await expect(info).resolves.toBe('cancel');
    const timed = showPopup(h, { kind: 'confirmation', title: 'Quick', message: 'Answer', timerMs: 500 });
    vi.advanceTimersByTime(500);
    await expect(timed).resolves.toBe('cancel');
    const untimed = showPopup(h, { kind: 'alert', title: 'Stays', message: 'Until answered' });
    vi.advanceTimersByTime(60_000);
    expect(dialog()).not.toBeNull();
    dialog()!.querySelector<HTMLButtonElement>('button')!.click();
    await expect(untimed).resolves.toBe('confirm');
  });

  it('waits for its turn behind another modal, and its timer only runs once shown', async () => {
    vi.useFakeTimers();
    const { host: h } = host();
    const first = showPopup(h, { kind: 'alert', title: 'First', message: 'One' });
    const second = showPopup(h, { kind: 'information', title: 'Second', message: 'Two' });
    const dialogs = () => [...document.querySelectorAll<HTMLDialogElement>('dialog')];
    expect(dialogs().filter((d) => d.open).map((d) => d.textContent)).toEqual(['FirstOneOK']);
    vi.advanceTimersByTime(5000);
    dialogs()[0]!.querySelector<HTMLButtonElement>('button')!.click();
    await expect(first).resolves.toBe('confirm');
    expect(dialogs().filter((d) => d.open).map((d) => d.textContent)).toEqual(['SecondTwo']);
    vi.advanceTimersByTime(2000);
    await expect(second).resolves.toBe('cancel');
  });
});

describe('the logout notice', () => {
  it('says the spec words in an information popup that hides by itself', async () => {
    vi.useFakeTimers();
    const { cameFromLogout, showLogoutNotice } = await import('./logout-notice');
    expect(cameFromLogout('https://example.com/?logout=true')).toBe(true);
    expect(cameFromLogout('https://example.com/?logout=1')).toBe(false);
    const { overlays } = host();
    const shown = showLogoutNotice(window, overlays);
    expect(dialog()!.textContent).toBe('Logout SuccessfulYou have been successfully logged out.');
    vi.advanceTimersByTime(2000);
    await expect(shown).resolves.toBe('cancel');
  });
});
