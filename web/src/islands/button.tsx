//! Button island: a button block's tooltip and the popup it opens before following its link.
//! Plain DOM (no React): both widgets are small modules of their own.

import type { IslandUnmount } from '../runtime/island-contract';
import { pageOverlays } from '../runtime/overlay-coordinator';
import { showPopup, type PopupKind } from '../widgets/popups';
import { startTooltips } from '../widgets/tooltip';

interface ButtonPopupProps {
  readonly kind: PopupKind;
  readonly title: string;
  readonly message: string;
  readonly timerMs?: number;
}

function parsePopup(props: unknown): ButtonPopupProps | undefined {
  const popup = (props as { popup?: Record<string, unknown> } | null)?.popup;
  if (typeof popup !== 'object' || popup === null) return undefined;
  const kind = popup['kind'];
  if (kind !== 'confirmation' && kind !== 'alert' && kind !== 'information') return undefined;
  const timer = popup['timer_ms'];
  return {
    kind,
    title: String(popup['title'] ?? ''),
    message: String(popup['message'] ?? ''),
    ...(typeof timer === 'number' ? { timerMs: timer } : {}),
  };
}

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const win = element.ownerDocument.defaultView ?? window;
  const overlays = pageOverlays(win);
  const stopTooltips = startTooltips({ window: win, overlays }, element);
  const popup = parsePopup(props);
  const link = element.querySelector<HTMLAnchorElement>('a.button');
  const onClick = (event: MouseEvent): void => {
    if (popup === undefined || link === null) return;
    // A modified click (new tab, new window) keeps the browser's meaning.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void showPopup({ window: win, overlays }, popup).then((response) => {
      if (response !== 'confirm') return;
      if (link.target === '_blank') win.open(link.href, '_blank', 'noopener');
      else win.location.assign(link.href);
    });
  };
  link?.addEventListener('click', onClick);
  if (popup !== undefined) link?.setAttribute('aria-haspopup', 'dialog');
  return () => {
    stopTooltips();
    link?.removeEventListener('click', onClick);
    link?.removeAttribute('aria-haspopup');
  };
}
