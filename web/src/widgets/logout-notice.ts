//! The 'Logout Successful' information dialog of 000 s2: shown on a page opened with
//! `logout=true` after a logout. A chunk of its own, loaded only on such a page.

import type { OverlayCoordinator } from '../runtime/overlay-coordinator';
import { showPopup, type PopupResponse } from './popups';

export const LOGOUT_TITLE = 'Logout Successful';
export const LOGOUT_MESSAGE = 'You have been successfully logged out.';

/** Whether the page was opened after a logout. */
export function cameFromLogout(href: string): boolean {
  return new URL(href).searchParams.get('logout') === 'true';
}

export function showLogoutNotice(win: Window, overlays?: OverlayCoordinator): Promise<PopupResponse> {
  return showPopup({ window: win, overlays }, { kind: 'information', title: LOGOUT_TITLE, message: LOGOUT_MESSAGE });
}
