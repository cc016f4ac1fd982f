//! The overlay coordinator with every pair of overlays opened in either order: who shows, who
//! waits, what Escape closes, where focus goes and what is inert.

import { afterEach, describe, expect, it } from 'vitest';
import { createEscapeRegistry } from './escape-registry';
import { createOverlayCoordinator, type OverlayCoordinator, type OverlayHandle, type OverlayLayer } from './overlay-coordinator';

/** How each overlay of the page asks to open, as the real ones do. */
const KINDS: Record<string, { layer: OverlayLayer; modal: boolean; automatic?: boolean; escapable: boolean }> = {
  banner: { layer: 'consent', modal: false, escapable: false },
  popup: { layer: 'popup', modal: true, escapable: true },
  'popup-overlay': { layer: 'popup-overlay', modal: true, automatic: true, escapable: true },
  lightbox: { layer: 'lightbox', modal: true, escapable: true },
  tooltip: { layer: 'tooltip', modal: false, escapable: true },
};
type Kind = keyof typeof KINDS;

interface Opened {
  readonly kind: Kind;
  readonly element: HTMLElement;
  handle: OverlayHandle;
  onScreen: boolean;
}

const escapeKey = () => new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });

function setup() {
  document.body.innerHTML = '<main id="main"><button id="trigger">Open</button></main>';
  const escape = createEscapeRegistry();
  const overlays = createOverlayCoordinator({ document, escape });
  const open = (kind: Kind): Opened => {
    const spec = KINDS[kind]!;
    const element = document.createElement('div');
    element.id = kind;
    element.innerHTML = `<button>Inside ${kind}</button>`;
    document.body.append(element);
    const opened: Opened = { kind, element, handle: undefined as unknown as OverlayHandle, onScreen: false };
    opened.handle = overlays.open({
      layer: spec.layer,
      modal: spec.modal,
      automatic: spec.automatic ?? false,
      element,
      show: () => {
        opened.onScreen = true;
        if (spec.modal) element.querySelector('button')!.focus();
      },
      suspend: () => {
        opened.onScreen = false;
      },
      ...(spec.escapable
        ? {
            dismiss: () => {
              opened.onScreen = false;
              opened.handle.release();
            },
          }
        : {}),
    });
    return opened;
  };
  return { escape, overlays, open };
}

/** What the pair should look like with both asked for: which are on screen. */
function expectedOnScreen(first: Kind, second: Kind): Kind[] {
  const a = KINDS[first]!;
  const b = KINDS[second]!;
  const rank = (kind: Kind) => ['consent', 'popup', 'popup-overlay', 'lightbox', 'tooltip'].indexOf(KINDS[kind]!.layer);
  const [top, other] = rank(first) <= rank(second) ? [first, second] : [second, first];
  const topSpec = KINDS[top]!;
  const otherSpec = KINDS[other]!;
  // Two modals: only the more important one. An automatic overlay waits under anything above it.
  if (a.modal && b.modal) return [top];
  if (otherSpec.automatic) return [top];
  // A tooltip opened before a modal closes when the modal opens; after it, it sits on top.
  if (otherSpec.layer === 'tooltip' && topSpec.modal && first === 'tooltip') return [top];
  return [first, second];
}

const kinds = Object.keys(KINDS) as Kind[];
const pairs = kinds.flatMap((first) => kinds.filter((second) => second !== first).map((second) => [first, second] as const));

describe('overlay coordinator', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it.each(pairs)('%s then %s', (first, second) => {
    const { escape, overlays, open } = setup();
    const trigger = document.getElementById('trigger')!;
    trigger.focus();
    const a = open(first);
    const b = open(second);
    const expected = expectedOnScreen(first, second);
    const onScreen = [a, b].filter((o) => o.onScreen).map((o) => o.kind);
    expect(onScreen.sort()).toEqual([...expected].sort());
    expect(overlays.shown.length).toBe(expected.length);

    // At most one modal, and while one shows the page behind is inert, the modal itself is not.
    const modals = [a, b].filter((o) => o.onScreen && KINDS[o.kind]!.modal);
    expect(modals.length).toBeLessThanOrEqual(1);
    const main = document.getElementById('main')!;
    expect(main.hasAttribute('inert')).toBe(modals.length === 1);
    for (const modal of modals) expect(modal.element.hasAttribute('inert')).toBe(false);

    // Escape closes the topmost escapable overlay on screen, and only that one.
    const escapable = [a, b].filter((o) => o.onScreen && KINDS[o.kind]!.escapable);
    const topmost = escapable.at(-1);
    escape.handleKeydown(escapeKey());
    if (topmost !== undefined) expect(topmost.onScreen).toBe(false);
    for (const other of escapable.slice(0, -1)) expect(other.onScreen).toBe(true);

    // Releasing everything lets waiting overlays through and finally returns focus and the page.
    for (let round = 0; round < 4; round += 1) {
      for (const o of [a, b]) if (o.onScreen) o.handle.release(), (o.onScreen = false);
    }
    expect(overlays.shown).toEqual([]);
    expect(overlays.waiting).toEqual([]);
    expect(main.hasAttribute('inert')).toBe(false);
    if ([first, second].some((kind) => KINDS[kind]!.modal)) expect(document.activeElement).toBe(trigger);
  });

  it('opens the automatic popup overlay once the banner is answered', () => {
    const { overlays, open } = setup();
    const banner = open('banner');
    const overlay = open('popup-overlay');
    expect(overlay.onScreen).toBe(false);
    expect(overlays.waiting).toEqual(['popup-overlay']);
    banner.handle.release();
    expect(overlay.onScreen).toBe(true);
  });

  it('suspends the popup overlay for a popup the visitor asked for, then brings it back', () => {
    const { open } = setup();
    const overlay = open('popup-overlay');
    const popup = open('popup');
    expect(overlay.onScreen).toBe(false);
    expect(popup.onScreen).toBe(true);
    popup.handle.release();
    expect(overlay.onScreen).toBe(true);
    expect(document.activeElement?.textContent).toBe('Inside popup-overlay');
  });

  it('leaves focus alone when the visitor moved it elsewhere before a modal closed', () => {
    const { open } = setup();
    document.getElementById('trigger')!.focus();
    const popup = open('popup');
    const elsewhere = document.createElement('button');
    document.body.append(elsewhere);
    popup.handle.release();
    elsewhere.focus();
    expect(document.activeElement).toBe(elsewhere);
  });

  it('ignores a second release', () => {
    const { overlays, open } = setup();
    const popup = open('popup');
    popup.handle.release();
    popup.handle.release();
    expect((overlays as OverlayCoordinator).shown).toEqual([]);
  });
});
