//! The tooltip (001 s2, s9) over server-rendered markup: a target carrying `aria-describedby`
//! pointing at a `[role=tooltip]` element. Shown 1200 ms after the pointer rests on the target,
//! at once on keyboard focus; placed beside the pointer (or below the focused target) inside the
//! viewport's margins; it stays while the pointer moves onto it, and Escape dismisses it
//! without moving focus (WCAG 1.4.13). Plain DOM, no React.

import { TOOLTIP_SHOW_DELAY_MS } from '../generated/widget-constants';
import { openOverlay, type OverlayCoordinator, type OverlayHandle } from '../runtime/overlay-coordinator';
import { tooltipPosition, tooltipWidthPx } from './tooltip-rules';

/** Leaving the target for the tooltip itself crosses a small gap: this long to cross it. */
const HIDE_GRACE_MS = 300;
const VISIBLE_CLASS = 'tooltip--visible';

export interface TooltipHost {
  readonly window: Window;
  readonly overlays?: OverlayCoordinator | undefined;
}

/** Makes one target's tooltip work; returns a function that stops it. */
export function attachTooltip(host: TooltipHost, target: HTMLElement, tip: HTMLElement): () => void {
  const win = host.window;
  let showTimer: ReturnType<typeof setTimeout> | undefined;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  let anchor: [number, number] = [0, 0];
  let overlay: OverlayHandle | undefined;

  const place = (): void => {
    tip.style.width = `${tooltipWidthPx(win.innerWidth)}px`;
    const [left, top] = tooltipPosition(anchor, [win.innerWidth, win.innerHeight], tip.offsetHeight);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  };
  const clearTimers = (): void => {
    if (showTimer !== undefined) clearTimeout(showTimer);
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    showTimer = hideTimer = undefined;
  };
  const hide = (): void => {
    clearTimers();
    tip.classList.remove(VISIBLE_CLASS);
    tip.hidden = true;
    const current = overlay;
    overlay = undefined;
    current?.release();
  };
  const show = (): void => {
    clearTimers();
    if (overlay !== undefined) {
      place();
      return;
    }
    overlay = openOverlay(
      win,
      {
        layer: 'tooltip',
        modal: false,
        element: tip,
        show: () => {
          tip.hidden = false;
          place();
          tip.classList.add(VISIBLE_CLASS);
        },
        suspend: () => {
          tip.hidden = true;
        },
        dismiss: hide,
      },
      host.overlays,
    );
  };
  const hideSoon = (): void => {
    if (showTimer !== undefined) clearTimeout(showTimer);
    showTimer = undefined;
    if (overlay === undefined) return;
    if (hideTimer === undefined) hideTimer = setTimeout(hide, HIDE_GRACE_MS);
  };

  const onPointerEnter = (event: PointerEvent): void => {
    anchor = [event.clientX, event.clientY];
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
    if (overlay === undefined && showTimer === undefined) showTimer = setTimeout(show, TOOLTIP_SHOW_DELAY_MS);
  };
  const onPointerMove = (event: PointerEvent): void => {
    anchor = [event.clientX, event.clientY];
  };
  const onFocus = (): void => {
    // Keyboard focus (not a click's) shows it at once, below the target.
    if (!target.matches(':focus-visible')) return;
    const rect = target.getBoundingClientRect();
    anchor = [rect.left, rect.bottom];
    show();
  };
  const onTipEnter = (): void => {
    if (hideTimer !== undefined) clearTimeout(hideTimer);
    hideTimer = undefined;
  };

  const listeners: [EventTarget, string, EventListener][] = [
    [target, 'pointerenter', onPointerEnter as EventListener],
    [target, 'pointermove', onPointerMove as EventListener],
    [target, 'pointerleave', hideSoon],
    [target, 'focus', onFocus],
    [target, 'blur', hide],
    [tip, 'pointerenter', onTipEnter],
    [tip, 'pointerleave', hideSoon],
  ];
  // A tooltip is positioned against the viewport, wherever the target sits in the layout.
  tip.classList.add('tooltip--floating');
  for (const [on, type, listener] of listeners) on.addEventListener(type, listener);
  return () => {
    hide();
    tip.classList.remove('tooltip--floating');
    for (const [on, type, listener] of listeners) on.removeEventListener(type, listener);
  };
}

/** Attaches every `[data-tooltip-target]` under `root` to the tooltip it describes itself by. */
export function startTooltips(host: TooltipHost, root: ParentNode): () => void {
  const doc = host.window.document;
  const stops: (() => void)[] = [];
  for (const target of root.querySelectorAll<HTMLElement>('[data-tooltip-target]')) {
    const ids = (target.getAttribute('aria-describedby') ?? '').split(/\s+/);
    const tip = ids.map((id) => doc.getElementById(id)).find((element) => element?.getAttribute('role') === 'tooltip');
    if (tip) stops.push(attachTooltip(host, target, tip));
  }
  return () => stops.forEach((stop) => stop());
}
