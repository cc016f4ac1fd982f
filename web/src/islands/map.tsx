//! Map block island (block type 4): turns the server's static map into an interactive Leaflet map,
//! but only once the visitor agreed to contact the tile server, a third party: by accepting
//! cookies (now or earlier) or by pressing the "Load map" button, which says what loading shares.
//! Until then, and when the map library fails to load within 30 s (reported to the error
//! reporting), the static map, address and link stay as the server rendered them. Plain DOM: the
//! block's markup is complete without it.

import { CONSENT_EVENT } from '../consent/banner-markup';
import { CONSENT_COOKIE, parseConsentCookie } from '../consent/consent-state';
import { readCookie } from '../runtime/request/crumb';
import type { IslandUnmount } from '../runtime/island-contract';
import { showSpinner, type Spinner } from '../widgets/spinner';
import type { InteractiveMap } from '../maps/leaflet-map';
import {
  debounced,
  loadMapLabel,
  mayContactTileServer,
  mergeMapProps,
  parseMapProps,
  sharedLoader,
  type Timers,
} from '../maps/map-rules';

/** Dispatched on the block element with new props in `detail` (the editor's live preview). */
export const OPTIONS_EVENT = 'vitrine:map-options';

export type MapState = 'static' | 'loading' | 'interactive' | 'failed';

const timers: Timers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Leaflet and its stylesheet, fetched once for every map block of the page. */
const loadLeaflet = sharedLoader(() => import('../maps/leaflet-map'), timers);

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const doc = element.ownerDocument;
  const win = doc.defaultView;
  if (win === null) throw new Error('Vitrine: the map block has no window.');
  const canvas = element.querySelector<HTMLElement>('[data-map-canvas]');
  const image = canvas?.querySelector<HTMLImageElement>('img');
  if (!canvas || !image) throw new Error('Vitrine: the map block has no static map to enhance.');
  let props = parseMapProps(rawProps);
  let map: InteractiveMap | undefined;
  let surface: HTMLElement | undefined;
  let spinner: Spinner | undefined;
  let unmounted = false;

  const setState = (state: MapState): void => {
    element.dataset['mapState'] = state;
  };

  const offer = doc.createElement('p');
  offer.className = 'map-card__load';
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'button button--small button--secondary';
  button.textContent = loadMapLabel(props.tileHost);
  offer.append(button);

  const load = (): void => {
    if (element.dataset['mapState'] !== 'static') return;
    setState('loading');
    offer.remove();
    win.removeEventListener(CONSENT_EVENT, onConsent);
    // The static map stays under the loading spinner (001 s2) until the library is here.
    spinner = showSpinner(canvas, 'Loading the map');
    loadLeaflet().then(
      (leaflet) => {
        if (unmounted) return;
        spinner?.remove();
        surface = doc.createElement('div');
        surface.className = 'map-card__interactive';
        surface.setAttribute('role', 'region');
        surface.setAttribute('aria-label', `Interactive map of ${props.markerLabel}`);
        canvas.append(surface);
        map = leaflet.createInteractiveMap(surface, props, (url) => win.open(url, '_blank', 'noopener,noreferrer'));
        image.hidden = true;
        setState('interactive');
      },
      (error: unknown) => {
        if (unmounted) return;
        spinner?.remove();
        setState('failed');
        // The project's error reporting listens to the window's error events.
        if (typeof win.reportError === 'function') win.reportError(error);
        else console.error(error);
      },
    );
  };

  const onConsent = (event: Event): void => {
    const choice = (event as CustomEvent<{ choice?: unknown }>).detail?.choice;
    if (choice === 'accepted') load();
  };

  const updates = debounced<unknown>((update) => {
    try {
      props = mergeMapProps(props, update);
      map?.update(props);
    } catch (error) {
      console.error('Vitrine: map options not applied.', error);
    }
  }, timers);
  const onOptions = (event: Event): void => updates.push((event as CustomEvent<unknown>).detail);

  setState('static');
  element.addEventListener(OPTIONS_EVENT, onOptions);
  button.addEventListener('click', load);
  if (mayContactTileServer(parseConsentCookie(readCookie(doc, CONSENT_COOKIE)), false)) {
    load();
  } else {
    canvas.after(offer);
    win.addEventListener(CONSENT_EVENT, onConsent);
  }

  return () => {
    unmounted = true;
    updates.cancel();
    element.removeEventListener(OPTIONS_EVENT, onOptions);
    win.removeEventListener(CONSENT_EVENT, onConsent);
    offer.remove();
    spinner?.remove();
    map?.destroy();
    surface?.remove();
    image.hidden = false;
    delete element.dataset['mapState'];
  };
}
