import { describe, expect, it, vi } from 'vitest';
import {
  MAP_LOAD_TIMEOUT_MS,
  MAP_OPTIONS_DEBOUNCE_MS,
  MapLoadError,
  debounced,
  leafletMapOptions,
  loadMapLabel,
  markerIconGeometry,
  mayContactTileServer,
  mergeMapProps,
  parseMapProps,
  sharedLoader,
  type Timers,
} from './map-rules';

const RAW = {
  lat: 38.7172,
  lng: -9.1313,
  markerLat: 38.7,
  markerLng: -9.13,
  zoom: 15,
  style: 'minimal-blue',
  tileUrl: 'https://tiles.example/{z}/{x}/{y}.png',
  tileHost: 'tiles.example',
  attribution: '© OpenStreetMap contributors',
  mapsUrl: 'https://www.openstreetmap.org/?mlat=38.7&mlon=-9.13#map=15/38.7172/-9.1313',
  markerLabel: 'Terraluz Studio',
  draggable: true,
  scrollwheel: false,
  showControls: true,
  markerDraggable: false,
  linkOnClick: true,
};

const fakeTimers = (): Timers => ({
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

describe('map props', () => {
  it('reads what the server writes', () => {
    const props = parseMapProps(RAW);
    expect(props.style).toBe('minimal-blue');
    expect(props.mapsUrl).toBe(RAW.mapsUrl);
    expect(props.linkOnClick).toBe(true);
  });

  it('refuses what no map can show, so the static map stays', () => {
    expect(() => parseMapProps({ ...RAW, lat: 91 })).toThrow(/latitude/);
    expect(() => parseMapProps({ ...RAW, lng: Number.NaN })).toThrow(/longitude/);
    expect(() => parseMapProps({ ...RAW, zoom: 21 })).toThrow(/zoom/);
    expect(() => parseMapProps({ ...RAW, tileUrl: 'javascript:alert(1)' })).toThrow(/tile/);
    expect(() => parseMapProps(null)).toThrow();
  });

  it('keeps only https maps links and reads unknown styles as the original', () => {
    const props = parseMapProps({ ...RAW, mapsUrl: 'javascript:alert(1)', style: 'neon' });
    expect(props.mapsUrl).toBeNull();
    expect(props.style).toBe('original');
  });

  it('merges an editor update and checks it again', () => {
    const props = parseMapProps(RAW);
    expect(mergeMapProps(props, { zoom: 9, scrollwheel: true })).toMatchObject({ zoom: 9, scrollwheel: true, lat: RAW.lat });
    expect(() => mergeMapProps(props, { zoom: 0 })).toThrow(/zoom/);
    expect(mergeMapProps(props, 'nonsense')).toBe(props);
  });
});

describe('what Leaflet is asked for', () => {
  it('follows the UI options', () => {
    expect(leafletMapOptions(parseMapProps(RAW))).toEqual({
      center: [38.7172, -9.1313],
      zoom: 15,
      maxZoom: 19,
      dragging: true,
      scrollWheelZoom: false,
      zoomControl: true,
      keyboard: true,
      attributionControl: true,
    });
    const still = leafletMapOptions(parseMapProps({ ...RAW, draggable: false, showControls: false, zoom: 20 }));
    expect(still).toMatchObject({ dragging: false, zoomControl: false, keyboard: false, zoom: 19 });
  });

  it('draws the 48x64 marker at half size with its tip on the location', () => {
    expect(markerIconGeometry()).toEqual({ size: [24, 32], anchor: [12, 32] });
  });
});

describe('consent to contact the tile server', () => {
  it('waits for accepted cookies or the button', () => {
    expect(mayContactTileServer(undefined, false)).toBe(false);
    expect(mayContactTileServer('declined', false)).toBe(false);
    expect(mayContactTileServer('accepted', false)).toBe(true);
    expect(mayContactTileServer('declined', true)).toBe(true);
  });

  it('says what loading shares', () => {
    expect(loadMapLabel('tiles.example')).toBe('Load map (shares your IP address with tiles.example)');
  });
});

describe('the shared load of the map library', () => {
  it('imports once for every map of the page', async () => {
    const importer = vi.fn(() => Promise.resolve('leaflet'));
    const load = sharedLoader(importer, fakeTimers());
    await expect(Promise.all([load(), load(), load()])).resolves.toEqual(['leaflet', 'leaflet', 'leaflet']);
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('fails after 30 s and does not retry for the next map', async () => {
    vi.useFakeTimers();
    try {
      const importer = vi.fn(() => new Promise<string>(() => undefined));
      const load = sharedLoader(importer, fakeTimers());
      const first = load();
      const settled = vi.fn();
      first.catch(settled);
      await vi.advanceTimersByTimeAsync(MAP_LOAD_TIMEOUT_MS - 1);
      expect(settled).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await expect(first).rejects.toBeInstanceOf(MapLoadError);
      await expect(first).rejects.toThrow('Map load failed: the map library did not load within 30 s.');
      await expect(load()).rejects.toBeInstanceOf(MapLoadError);
      expect(importer).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a failed import as a map load failure with its cause', async () => {
    const cause = new Error('network');
    const load = sharedLoader(() => Promise.reject(cause), fakeTimers());
    await expect(load()).rejects.toMatchObject({ name: 'MapLoadError', cause });
  });
});

describe('option updates', () => {
  it('apply the last of a burst 60 ms after it', () => {
    vi.useFakeTimers();
    try {
      const applied: number[] = [];
      const updates = debounced<number>((value) => applied.push(value), fakeTimers());
      updates.push(1);
      vi.advanceTimersByTime(MAP_OPTIONS_DEBOUNCE_MS - 1);
      updates.push(2);
      vi.advanceTimersByTime(MAP_OPTIONS_DEBOUNCE_MS - 1);
      expect(applied).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(applied).toEqual([2]);
      updates.push(3);
      updates.cancel();
      vi.advanceTimersByTime(MAP_OPTIONS_DEBOUNCE_MS);
      expect(applied).toEqual([2]);
    } finally {
      vi.useRealTimers();
    }
  });
});
