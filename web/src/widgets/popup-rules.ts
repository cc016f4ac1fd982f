//! Which answers a confirmation, alert or information popup offers and when it hides by itself
//! (001 s4, s9), mirrored from the core and checked against its vectors.

import { POPUP_INFORMATION_AUTO_HIDE_MS } from '../generated/widget-constants';

export type PopupKind = 'confirmation' | 'alert' | 'information';
export type PopupResponse = 'confirm' | 'reject' | 'cancel';

export const POPUP_BUTTONS: Readonly<Record<PopupKind, readonly PopupResponse[]>> = {
  confirmation: ['reject', 'confirm'],
  alert: ['confirm'],
  information: [],
};

/** The timer the caller set (0 is none), or 2000 ms for an information popup without one. */
export function autoHideMs(kind: PopupKind, timerMs: number | undefined): number | undefined {
  if (timerMs !== undefined && timerMs > 0) return timerMs;
  return kind === 'information' ? POPUP_INFORMATION_AUTO_HIDE_MS : undefined;
}
