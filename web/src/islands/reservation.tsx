//! Table-reservation block island (OpenTable v2, block type 66): loads the booking service's
//! widget script in place of the server's notice and link, only once the visitor accepted
//! cookies (now or earlier), with the wide theme above 850 px of container width (000 s4). A
//! signed-in owner's preview (000 s6) is marked by the owner's script, and then nothing loads.
//! Plain DOM, so its chunk loads no React.

import { CONSENT_EVENT } from '../consent/banner-markup';
import { CONSENT_COOKIE, parseConsentCookie } from '../consent/consent-state';
import { parseReservationProps, reservationScript } from '../blocks/third-party-rules';
import type { IslandUnmount } from '../runtime/island-contract';
import { readCookie } from '../runtime/request/crumb';

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  const widget = element.querySelector<HTMLElement>('[data-reservation-widget]');
  if (win === null || widget === null) throw new Error('Vitrine: the table-reservation block has no widget area.');
  const props = parseReservationProps(rawProps);
  let script: HTMLScriptElement | undefined;

  const load = (): void => {
    win.removeEventListener(CONSENT_EVENT, onConsent);
    if (element.querySelector('[data-reservation-preview]') !== null || script !== undefined) return;
    script = doc.createElement('script');
    script.src = reservationScript(props, widget.getBoundingClientRect().width);
    script.async = true;
    // The service's loader writes its widget where its script stands.
    widget.append(script);
    element.dataset['reservationState'] = 'loading';
  };
  const onConsent = (event: Event): void => {
    if ((event as CustomEvent<{ choice?: unknown }>).detail?.choice === 'accepted') load();
  };

  if (parseConsentCookie(readCookie(doc, CONSENT_COOKIE)) === 'accepted') load();
  else {
    element.dataset['reservationState'] = 'waiting';
    win.addEventListener(CONSENT_EVENT, onConsent);
  }

  return () => {
    win.removeEventListener(CONSENT_EVENT, onConsent);
    script?.remove();
    delete element.dataset['reservationState'];
  };
}
