//! Embed block island (block type 22), for a third party's page: nothing is requested from the
//! third party until the visitor presses the load button, which says who will be contacted.
//! A non-essential embed offers that button only once the visitor accepted cookies (now or
//! earlier); until then, and without JavaScript, the server's placeholder with its link stays.
//! Plain DOM, so its chunk loads no React.

import { CONSENT_EVENT } from '../consent/banner-markup';
import { CONSENT_COOKIE, parseConsentCookie } from '../consent/consent-state';
import { embedLoadLabel, embedOffer, parseEmbedProps } from '../blocks/third-party-rules';
import type { IslandUnmount } from '../runtime/island-contract';
import { readCookie } from '../runtime/request/crumb';

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  const placeholder = element.querySelector<HTMLElement>('[data-embed-frame]');
  if (win === null || placeholder === null) throw new Error('Vitrine: the embed block has no placeholder to replace.');
  const props = parseEmbedProps(rawProps);
  let frame: HTMLIFrameElement | undefined;

  const action = doc.createElement('p');
  action.className = 'embed__load';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'button button--small';
  button.textContent = embedLoadLabel(props);
  action.append(button);

  const load = (): void => {
    frame = doc.createElement('iframe');
    frame.className = 'embed__frame';
    frame.title = props.title;
    frame.height = String(props.height);
    frame.setAttribute('sandbox', props.sandbox);
    frame.referrerPolicy = 'strict-origin-when-cross-origin';
    frame.src = props.url;
    placeholder.hidden = true;
    placeholder.after(frame);
    element.dataset['embedState'] = 'loaded';
    frame.focus();
  };
  const offer = (): void => {
    win.removeEventListener(CONSENT_EVENT, onConsent);
    placeholder.append(action);
    element.dataset['embedState'] = 'offered';
  };
  const onConsent = (event: Event): void => {
    if ((event as CustomEvent<{ choice?: unknown }>).detail?.choice === 'accepted') offer();
  };

  button.addEventListener('click', load);
  if (embedOffer(parseConsentCookie(readCookie(doc, CONSENT_COOKIE)), props.essential) === 'offer') {
    offer();
  } else {
    element.dataset['embedState'] = 'blocked';
    win.addEventListener(CONSENT_EVENT, onConsent);
  }

  return () => {
    win.removeEventListener(CONSENT_EVENT, onConsent);
    button.removeEventListener('click', load);
    action.remove();
    frame?.remove();
    placeholder.hidden = false;
    delete element.dataset['embedState'];
  };
}
