//! Follow button island (001 s2, s3, s7): once the visitor accepted cookies (now or earlier) it
//! loads the social platform's script, which draws the platform's follow button in place of the
//! server's link. Before that, and when the script fails or takes longer than 10 s (reported to
//! the error reporting), the first-party link stays. Plain DOM, so its chunk loads no React.

import { CONSENT_EVENT } from '../consent/banner-markup';
import { CONSENT_COOKIE, parseConsentCookie } from '../consent/consent-state';
import { loadFollowScript, parseFollowProps } from '../blocks/follow-rules';
import type { IslandUnmount } from '../runtime/island-contract';
import { readCookie } from '../runtime/request/crumb';

export type FollowState = 'waiting' | 'loading' | 'loaded' | 'failed';

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  const button = element.querySelector<HTMLElement>('[data-follow-button]');
  if (win === null || button === null) throw new Error('Vitrine: the follow button block has no button.');
  const props = parseFollowProps(rawProps);
  let unmounted = false;
  const setState = (state: FollowState): void => {
    element.dataset['followState'] = state;
  };

  const load = (): void => {
    win.removeEventListener(CONSENT_EVENT, onConsent);
    if (element.dataset['followState'] !== 'waiting') return;
    setState('loading');
    loadFollowScript(doc, props)
      .then((platform) => platform.widgets.load(button))
      .then(
        () => {
          if (!unmounted) setState('loaded');
        },
        (error: unknown) => {
          if (unmounted) return;
          setState('failed');
          // The project's error reporting listens to the window's error events.
          if (typeof win.reportError === 'function') win.reportError(error);
          else console.error(error);
        },
      );
  };
  const onConsent = (event: Event): void => {
    if ((event as CustomEvent<{ choice?: unknown }>).detail?.choice === 'accepted') load();
  };

  setState('waiting');
  if (parseConsentCookie(readCookie(doc, CONSENT_COOKIE)) === 'accepted') load();
  else win.addEventListener(CONSENT_EVENT, onConsent);

  return () => {
    unmounted = true;
    win.removeEventListener(CONSENT_EVENT, onConsent);
    delete element.dataset['followState'];
  };
}
