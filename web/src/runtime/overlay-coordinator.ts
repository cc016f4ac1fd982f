//! One coordinator for everything that opens over the page (the cookie banner, the popup overlay,
//! confirmation/alert/information popups, tooltips, later the lightbox): at most one modal at a
//! time, in a fixed priority with consent first; Escape (through the registry of 000 s2) closes
//! the topmost; focus returns to where it was; the page behind a modal is inert. A chunk of its
//! own, which only the code of an overlay imports: a page where nothing opens never loads it.

import type { EscapeRegistry } from './escape-registry';

/**
 * The layers, most important first. Consent leads: nothing automatic opens while the visitor
 * has not answered the banner. A popup the visitor asked for comes before the site's automatic
 * popup overlay, which comes before the lightbox; tooltips are never modal.
 */
export const OVERLAY_LAYERS = ['consent', 'popup', 'popup-overlay', 'lightbox', 'tooltip'] as const;
export type OverlayLayer = (typeof OVERLAY_LAYERS)[number];

export interface OverlayRequest {
  readonly layer: OverlayLayer;
  /** Modal: the page behind is inert, focus moves in and comes back, only one at a time. */
  readonly modal: boolean;
  /**
   * Opened by the page rather than by the visitor (the popup overlay): it waits while any
   * overlay of a higher layer is open, the non-modal banner included.
   */
  readonly automatic?: boolean;
  /** The overlay's outermost element, kept out of the inert page. */
  readonly element?: HTMLElement;
  /** Puts the overlay on screen; called again when it returns after a more important one. */
  show(): void;
  /** Takes it off screen for a more important overlay (it returns later). */
  suspend(): void;
  /** What Escape does; without it Escape passes this overlay by (the banner needs an answer). */
  dismiss?(): void;
}

export interface OverlayHandle {
  /** The overlay is done (answered, closed): it leaves the queue and the next one may open. */
  release(): void;
  /** True while the overlay is on screen. */
  readonly shown: boolean;
}

export interface OverlayCoordinator {
  /** Asks to open an overlay: it shows now, or waits for its turn. */
  open(request: OverlayRequest): OverlayHandle;
  /** The overlays on screen, bottom first. */
  readonly shown: readonly OverlayLayer[];
  /** The overlays waiting for their turn. */
  readonly waiting: readonly OverlayLayer[];
}

export interface CoordinatorOptions {
  readonly document: Document;
  readonly escape: EscapeRegistry;
}

const INERT_MARK = 'data-overlay-inert';

interface Entry {
  readonly request: OverlayRequest;
  readonly order: number;
  state: 'waiting' | 'shown' | 'released';
  everShown: boolean;
  returnFocusTo: Element | null;
  unregisterEscape: (() => void) | undefined;
}

const rank = (layer: OverlayLayer): number => OVERLAY_LAYERS.indexOf(layer);

export function createOverlayCoordinator(options: CoordinatorOptions): OverlayCoordinator {
  const { document: doc, escape } = options;
  const entries: Entry[] = [];
  let counter = 0;

  const shownEntries = (): Entry[] => entries.filter((entry) => entry.state === 'shown');

  /** Whether `entry` may be on screen beside the ones already shown. */
  const mayShow = (entry: Entry, shown: readonly Entry[]): boolean => {
    const { request } = entry;
    if (request.modal && shown.some((other) => other.request.modal)) return false;
    if (request.automatic && shown.some((other) => rank(other.request.layer) < rank(request.layer))) return false;
    return true;
  };

  const setInert = (): void => {
    for (const element of doc.querySelectorAll(`[${INERT_MARK}]`)) {
      element.removeAttribute(INERT_MARK);
      element.removeAttribute('inert');
    }
    const modal = shownEntries().find((entry) => entry.request.modal);
    const keep = modal?.request.element;
    if (modal === undefined || keep === undefined) return;
    for (const child of doc.body.children) {
      if (child.contains(keep) || child.hasAttribute('inert')) continue;
      child.setAttribute('inert', '');
      child.setAttribute(INERT_MARK, '');
    }
  };

  const show = (entry: Entry): void => {
    // Focus goes back where it was before the overlay first showed, not where it was when it
    // returned after a more important one.
    if (entry.request.modal && !entry.everShown) entry.returnFocusTo = doc.activeElement;
    entry.everShown = true;
    entry.state = 'shown';
    const { dismiss } = entry.request;
    if (dismiss !== undefined) entry.unregisterEscape = escape.register({ close: () => dismiss() });
    entry.request.show();
  };

  const hide = (entry: Entry, next: Entry['state']): void => {
    entry.unregisterEscape?.();
    entry.unregisterEscape = undefined;
    const wasShown = entry.state === 'shown';
    entry.state = next;
    if (wasShown && next === 'waiting') entry.request.suspend();
  };

  const restoreFocus = (entry: Entry): void => {
    const target = entry.returnFocusTo;
    entry.returnFocusTo = null;
    if (!(target instanceof HTMLElement) || !target.isConnected) return;
    const active = doc.activeElement;
    // Only where focus was left behind: in the closed overlay, or nowhere.
    const lost = active === null || active === doc.body || (entry.request.element?.contains(active) ?? false) || !active.isConnected;
    if (lost) target.focus({ preventScroll: true });
  };

  /** Settles who is on screen: the most important first, each if the ones before allow it. */
  const settle = (): void => {
    const live = entries
      .filter((entry) => entry.state !== 'released')
      .sort((a, b) => rank(a.request.layer) - rank(b.request.layer) || a.order - b.order);
    const keep: Entry[] = [];
    for (const entry of live) {
      if (mayShow(entry, keep)) keep.push(entry);
    }
    // A modal that must give way is suspended before the more important one shows.
    for (const entry of live) {
      if (entry.state === 'shown' && !keep.includes(entry)) hide(entry, 'waiting');
    }
    for (const entry of keep) {
      if (entry.state === 'waiting') show(entry);
    }
    setInert();
  };

  const open = (request: OverlayRequest): OverlayHandle => {
    const entry: Entry = { request, order: counter++, state: 'waiting', everShown: false, returnFocusTo: null, unregisterEscape: undefined };
    entries.push(entry);
    if (request.modal) {
      // A tooltip does not outlive a modal opening over it.
      for (const other of shownEntries()) {
        if (other.request.layer === 'tooltip') other.request.dismiss?.();
      }
    }
    settle();
    return {
      release() {
        if (entry.state === 'released') return;
        const wasShown = entry.state === 'shown';
        hide(entry, 'released');
        entries.splice(entries.indexOf(entry), 1);
        if (wasShown && request.modal) {
          setInert();
          restoreFocus(entry);
        }
        settle();
      },
      get shown() {
        return entry.state === 'shown';
      },
    };
  };

  return {
    open,
    get shown() {
      return shownEntries().map((entry) => entry.request.layer);
    },
    get waiting() {
      return entries.filter((entry) => entry.state === 'waiting').map((entry) => entry.request.layer);
    },
  };
}

/** The coordinator of each page runtime, made by the first overlay that opens on its page. */
const coordinators = new WeakMap<object, OverlayCoordinator>();

/**
 * The page's coordinator, made the first time something asks for it with the Escape registry the
 * runtime publishes on `window.Vitrine`; undefined where no runtime runs.
 */
export function pageOverlays(win: Window): OverlayCoordinator | undefined {
  const runtime = (win as unknown as { Vitrine?: { escape?: EscapeRegistry } }).Vitrine;
  if (runtime?.escape === undefined) return undefined;
  let overlays = coordinators.get(runtime);
  if (overlays === undefined) {
    overlays = createOverlayCoordinator({ document: win.document, escape: runtime.escape });
    coordinators.set(runtime, overlays);
  }
  return overlays;
}

/**
 * Opens through the page's coordinator, or, where there is none (a test, a page whose runtime did
 * not start), shows at once with nothing to coordinate.
 */
export function openOverlay(win: Window, request: OverlayRequest, overlays = pageOverlays(win)): OverlayHandle {
  if (overlays !== undefined) return overlays.open(request);
  let shown = true;
  request.show();
  return {
    release: () => {
      shown = false;
    },
    get shown() {
      return shown;
    },
  };
}
