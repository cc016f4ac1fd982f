//! Tests of the system error overlay: texts, buttons, focus, Escape and z-index.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_Z_INDEX } from './constants';
import { createEscapeRegistry } from './escape-registry';
import { createSystemErrorOverlay, OVERLAY_CLASS } from './system-error-overlay';

function setup() {
  const escape = createEscapeRegistry();
  const reload = vi.fn();
  const overlay = createSystemErrorOverlay({ document, escape, reload });
  return { escape, reload, overlay };
}

const dialog = () => document.querySelector<HTMLElement>(`.${OVERLAY_CLASS}`);
const buttonNamed = (name: string) =>
  [...document.querySelectorAll('button')].find((button) => button.textContent === name);

afterEach(() => document.body.replaceChildren());

describe('system error overlay', () => {
  it('shows only "Something Went Wrong!" for a cleaned error, as a labelled alert dialog above managed UI', () => {
    const { overlay } = setup();
    overlay.show({ kind: 'cleaned' });
    const root = dialog()!;
    expect(root.getAttribute('role')).toBe('alertdialog');
    const title = document.getElementById(root.getAttribute('aria-labelledby')!)!;
    expect(title.textContent).toBe('Something Went Wrong!');
    expect(document.getElementById(root.getAttribute('aria-describedby')!)!.textContent).toBe('');
    expect(root.style.zIndex).toBe(String(BASE_Z_INDEX));
    expect(root.style.position).toBe('fixed');
  });

  it('shows the network message, or the raw error with its URL', () => {
    const { overlay } = setup();
    overlay.show({ kind: 'network', message: 'Unable to connect\u2026' });
    expect(dialog()!.textContent).toContain('Unable to connect\u2026');
    overlay.show({ kind: 'raw', message: 'Form is closed', url: '/api/form/SaveFormSubmission' });
    const lines = [...dialog()!.querySelectorAll(`.${OVERLAY_CLASS}__detail p`)].map((p) => p.textContent);
    expect(lines).toEqual(['Form is closed', '/api/form/SaveFormSubmission']);
    expect(document.querySelectorAll(`.${OVERLAY_CLASS}`)).toHaveLength(1);
  });

  it('moves focus to the dialog and gives it back on Clear', () => {
    const { overlay } = setup();
    const trigger = document.createElement('button');
    document.body.append(trigger);
    trigger.focus();
    overlay.show({ kind: 'cleaned' });
    expect(document.activeElement).toBe(dialog());
    buttonNamed('Clear')!.click();
    expect(dialog()).toBeNull();
    expect(overlay.isShown).toBe(false);
    expect(document.activeElement).toBe(trigger);
  });

  it('reloads the page with Reload Page', () => {
    const { overlay, reload } = setup();
    overlay.show({ kind: 'cleaned' });
    buttonNamed('Reload Page')!.click();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape through the registry and unregisters when cleared', () => {
    const { overlay, escape } = setup();
    overlay.show({ kind: 'cleaned' });
    expect(escape.size).toBe(1);
    escape.handleKeydown(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(dialog()).toBeNull();
    overlay.show({ kind: 'cleaned' });
    overlay.clear();
    expect(escape.size).toBe(0);
  });

  it('keeps Tab focus on its buttons', () => {
    const { overlay } = setup();
    overlay.show({ kind: 'cleaned' });
    const reload = buttonNamed('Reload Page')!;
    const clear = buttonNamed('Clear')!;
    clear.focus();
    clear.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(reload);
    reload.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(clear);
  });
});
