//! The map block's rules in the browser (001 s2, s3, s4, s9): the island's props, what Leaflet is
//! asked for, the marker image's size, whether the tile server may be contacted, the one shared
//! load of the map library with its 30 s time-out, and the 60 ms debounce of option updates.
//! Plain TypeScript with no DOM or Leaflet, so every rule is unit-tested.

/** 001 s9: the map library gives up after 30 s. */
export const MAP_LOAD_TIMEOUT_MS = 30_000;
/** 001 s9: option updates in the map block are debounced 60 ms. */
export const MAP_OPTIONS_DEBOUNCE_MS = 60;
/** 001 s9: the marker image is 48x64, drawn at half size. */
export const MARKER_IMAGE_SIZE = { width: 48, height: 64 } as const;
/** Public tile servers stop at zoom 19. */
export const MAX_TILE_ZOOM = 19;

export const MAP_STYLES = ['original', 'grayscale', 'satellite', 'minimal-dark', 'minimal-light', 'minimal-blue'] as const;
export type MapStyleClass = (typeof MAP_STYLES)[number];

/** What the server writes into the map block's `data-island-props`. */
export interface MapProps {
  readonly lat: number;
  readonly lng: number;
  readonly markerLat: number;
  readonly markerLng: number;
  readonly zoom: number;
  readonly style: MapStyleClass;
  readonly tileUrl: string;
  readonly tileHost: string;
  readonly attribution: string;
  readonly mapsUrl: string | null;
  readonly markerLabel: string;
  readonly draggable: boolean;
  readonly scrollwheel: boolean;
  readonly showControls: boolean;
  readonly markerDraggable: boolean;
  readonly linkOnClick: boolean;
}

const BOOLEAN_OPTIONS = ['draggable', 'scrollwheel', 'showControls', 'markerDraggable', 'linkOnClick'] as const;

function degrees(value: unknown, limit: number, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > limit) {
    throw new Error(`Vitrine: the map's ${name} must be a number from -${limit} to ${limit}.`);
  }
  return value;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new Error(`Vitrine: the map's ${name} must be text.`);
  return value;
}

/** Reads the island's props, refusing what no map can show (the static map then stays). */
export function parseMapProps(raw: unknown): MapProps {
  if (typeof raw !== 'object' || raw === null) throw new Error('Vitrine: the map has no props.');
  const props = raw as Record<string, unknown>;
  const zoom = props['zoom'];
  if (typeof zoom !== 'number' || !Number.isInteger(zoom) || zoom < 1 || zoom > 20) {
    throw new Error('Vitrine: the map zoom must be a whole number from 1 to 20.');
  }
  const style = MAP_STYLES.find((name) => name === props['style']) ?? 'original';
  const tileUrl = text(props['tileUrl'], 'tile URL');
  if (!/^https?:\/\/[^/{}]+\/.*\{z\}.*/.test(tileUrl)) throw new Error('Vitrine: the map tile URL is not a tile template.');
  const mapsUrl = props['mapsUrl'];
  const booleans = Object.fromEntries(BOOLEAN_OPTIONS.map((name) => [name, props[name] === true])) as Record<
    (typeof BOOLEAN_OPTIONS)[number],
    boolean
  >;
  return {
    lat: degrees(props['lat'], 90, 'latitude'),
    lng: degrees(props['lng'], 180, 'longitude'),
    markerLat: degrees(props['markerLat'] ?? props['lat'], 90, 'marker latitude'),
    markerLng: degrees(props['markerLng'] ?? props['lng'], 180, 'marker longitude'),
    zoom,
    style,
    tileUrl,
    tileHost: text(props['tileHost'], 'tile host'),
    attribution: text(props['attribution'], 'attribution'),
    mapsUrl: typeof mapsUrl === 'string' && /^https:\/\//.test(mapsUrl) ? mapsUrl : null,
    markerLabel: typeof props['markerLabel'] === 'string' ? props['markerLabel'] : 'the location',
    ...booleans,
  };
}

/** Props updated by the editor's live preview: the known fields of `update` over `current`, checked again. */
export function mergeMapProps(current: MapProps, update: unknown): MapProps {
  if (typeof update !== 'object' || update === null) return current;
  return parseMapProps({ ...current, ...(update as Record<string, unknown>) });
}

/** The Leaflet map options a block's UI options ask for. */
export interface LeafletMapOptions {
  readonly center: [number, number];
  readonly zoom: number;
  readonly maxZoom: number;
  readonly dragging: boolean;
  readonly scrollWheelZoom: boolean;
  readonly zoomControl: boolean;
  readonly keyboard: boolean;
  readonly attributionControl: boolean;
}

export function leafletMapOptions(props: MapProps): LeafletMapOptions {
  return {
    center: [props.lat, props.lng],
    zoom: Math.min(props.zoom, MAX_TILE_ZOOM),
    maxZoom: MAX_TILE_ZOOM,
    dragging: props.draggable,
    scrollWheelZoom: props.scrollwheel,
    zoomControl: props.showControls,
    // The keyboard pans and zooms the map whenever it may be moved at all.
    keyboard: props.draggable || props.showControls,
    // The tile server's credit is always shown, as its usage policy asks.
    attributionControl: true,
  };
}

/** The marker's icon: the 48x64 image at half size, its tip (bottom middle) on the location. */
export function markerIconGeometry(): { size: [number, number]; anchor: [number, number] } {
  const width = MARKER_IMAGE_SIZE.width / 2;
  const height = MARKER_IMAGE_SIZE.height / 2;
  return { size: [width, height], anchor: [width / 2, height] };
}

/**
 * The visible text of the button that loads the interactive map: it says what loading shares,
 * since the visitor's browser then asks the tile server for images.
 */
export function loadMapLabel(tileHost: string): string {
  return `Load map (shares your IP address with ${tileHost})`;
}

/** The tile server is a third party: it is contacted only after the visitor accepted cookies or pressed the button. */
export function mayContactTileServer(consent: 'accepted' | 'declined' | undefined, pressedLoad: boolean): boolean {
  return pressedLoad || consent === 'accepted';
}

/** Schedules and cancels work; the window's timers in the browser, fakes in tests. */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The map library did not load within {@link MAP_LOAD_TIMEOUT_MS}, or failed to. */
export class MapLoadError extends Error {
  override readonly name = 'MapLoadError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * One load per page: the first call starts `importer`, every later call (from any map block)
 * shares its promise. It rejects with a {@link MapLoadError} after `timeoutMs`; a failed load is
 * not retried by later maps of the same page, which keep their static maps.
 */
export function sharedLoader<T>(importer: () => Promise<T>, timers: Timers, timeoutMs = MAP_LOAD_TIMEOUT_MS): () => Promise<T> {
  let shared: Promise<T> | undefined;
  return () => {
    shared ??= new Promise<T>((resolve, reject) => {
      const timer = timers.setTimeout(
        () => reject(new MapLoadError(`Map load failed: the map library did not load within ${timeoutMs / 1000} s.`)),
        timeoutMs,
      );
      importer().then(
        (module) => {
          timers.clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          timers.clearTimeout(timer);
          reject(new MapLoadError('Map load failed: the map library could not be loaded.', { cause: error }));
        },
      );
    });
    return shared;
  };
}

/** Runs `work` with the last value once `ms` passed without a newer one. */
export function debounced<T>(work: (value: T) => void, timers: Timers, ms = MAP_OPTIONS_DEBOUNCE_MS): { push(value: T): void; cancel(): void } {
  let handle: unknown;
  let pending = false;
  return {
    push(value: T) {
      if (pending) timers.clearTimeout(handle);
      pending = true;
      handle = timers.setTimeout(() => {
        pending = false;
        work(value);
      }, ms);
    },
    cancel() {
      if (pending) timers.clearTimeout(handle);
      pending = false;
    },
  };
}
