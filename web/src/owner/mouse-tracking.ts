//! Mouse position tracking (000 s6, 001 s6): only with a signed-in account in the page context,
//! decided by the gating rule `mousePositionTrackingEnabled`. It keeps the latest position of a
//! mouse pointer (touch and pen are not tracked) as fractions of the page's size, so positions
//! from windows of different widths compare; read at most once per animation frame. Nothing
//! leaves the browser from here: its one reader is the admin channel's click events.

import { mousePositionTrackingEnabled } from '../experiments/gating';

/** A position on the page, each coordinate from 0 (left, top) to 1 (right, bottom). */
export interface PagePosition {
  readonly x: number;
  readonly y: number;
}

export interface MouseTracker {
  /** The latest mouse position, or null before the mouse moved over the page. */
  position(): PagePosition | null;
  stop(): void;
}

const round = (value: number): number => Math.round(Math.min(Math.max(value, 0), 1) * 1000) / 1000;

/** The position of a pointer at page coordinates (`pageX`, `pageY`) on a page of this size. */
export function pagePosition(pageX: number, pageY: number, width: number, height: number): PagePosition {
  return { x: width > 0 ? round(pageX / width) : 0, y: height > 0 ? round(pageY / height) : 0 };
}

/** Starts tracking when the rule allows it (a signed-in account); undefined otherwise. */
export function startMouseTracking(win: Window, authenticatedAccount: boolean): MouseTracker | undefined {
  if (!mousePositionTrackingEnabled(authenticatedAccount)) return undefined;
  const doc = win.document;
  let latest: PagePosition | null = null;
  let pending: PointerEvent | undefined;
  let frame: number | undefined;
  const read = (): void => {
    frame = undefined;
    if (pending === undefined) return;
    const root = doc.documentElement;
    latest = pagePosition(pending.pageX, pending.pageY, root.scrollWidth, root.scrollHeight);
    pending = undefined;
  };
  const onMove = (event: PointerEvent): void => {
    if (event.pointerType !== 'mouse') return;
    pending = event;
    frame ??= win.requestAnimationFrame(read);
  };
  doc.addEventListener('pointermove', onMove, { passive: true });
  return {
    position: () => {
      // A move still waiting for its frame is the latest one.
      if (pending !== undefined) read();
      return latest;
    },
    stop: () => {
      doc.removeEventListener('pointermove', onMove);
      if (frame !== undefined) win.cancelAnimationFrame(frame);
    },
  };
}
