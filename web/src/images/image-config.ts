//! The image loading configuration of 001 s3, read from an image element's data attributes.

/** How the image covers its box (001 s3 crop modes; 001 s5: fit, fill, none or empty). */
export type ImageMode = 'fill' | 'fit' | 'none';
export type SizeFormat = 'queryString' | 'filename';
export type Alignment = 'top' | 'left' | 'center' | 'right' | 'bottom';
/** When the image loads: at once, when it nears the viewport, or only when asked. */
export type LoadMode = 'immediate' | 'lazy' | 'manual';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface ImageConfig {
  readonly src: string;
  /** The file's content hash, added to variant URLs as `v=` so they may be cached for good. */
  readonly version: string | null;
  readonly dimensions: Size | null;
  readonly fixedRatio: boolean;
  readonly focalPoint: Point;
  readonly load: LoadMode;
  readonly forceUpdate: boolean;
  readonly mode: ImageMode;
  readonly sizeAdjustment: number;
  readonly sizeFormat: SizeFormat;
  readonly stretch: boolean;
  readonly useBackgroundImage: boolean;
  readonly useAdvancedPositioning: boolean;
  readonly allowSaveData: boolean;
  readonly minDevicePixelRatio: number;
  readonly maxDevicePixelRatio: number;
  readonly alignment: Alignment;
  /** Whether a second load may start while one is in flight. */
  readonly allowConcurrentLoads: boolean;
}

/** The focal point when none is given: the middle. */
export const DEFAULT_FOCAL_POINT: Point = { x: 0.5, y: 0.5 };

/** `1500x1000` as a size; anything else (zero, negative, words) as none. */
export function parseDimensions(value: string | null): Size | null {
  const match = /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(value ?? '');
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** `0.3,0.7` as a point within the image, each coordinate clamped to 0..1; the middle otherwise. */
export function parseFocalPoint(value: string | null): Point {
  const parts = (value ?? '').split(',').map((part) => Number.parseFloat(part));
  const [x, y] = parts;
  if (parts.length !== 2 || x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) {
    return DEFAULT_FOCAL_POINT;
  }
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  return { x: clamp(x), y: clamp(y) };
}

/** 001 s3: cover, fill or content-fill fill the box; contain, fit or content-fit fit in it; anything else is none. */
export function parseMode(value: string | null): ImageMode {
  switch ((value ?? '').trim().toLowerCase()) {
    case 'cover':
    case 'fill':
    case 'content-fill':
      return 'fill';
    case 'contain':
    case 'fit':
    case 'content-fit':
      return 'fit';
    default:
      return 'none';
  }
}

function flag(value: string | null, fallback: boolean): boolean {
  if (value === null) return fallback;
  return value === '' || value === 'true';
}

function nonNegative(value: string | null, fallback: number): number {
  const parsed = Number.parseFloat(value ?? '');
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

function loadMode(value: string | null): LoadMode {
  if (value === 'false' || value === 'manual') return 'manual';
  if (value === 'true' || value === 'immediate') return 'immediate';
  return 'lazy';
}

function alignment(value: string | null): Alignment {
  const known: readonly Alignment[] = ['top', 'left', 'center', 'right', 'bottom'];
  return known.find((a) => a === value) ?? 'center';
}

/** The configuration of `element` from its data attributes, with the spec's defaults. */
export function readImageConfig(element: Element): ImageConfig {
  const get = (name: string) => element.getAttribute(`data-${name}`);
  const minDevicePixelRatio = nonNegative(get('min-device-pixel-ratio'), 1);
  return {
    src: (get('src') ?? '').trim(),
    version: get('image-version'),
    dimensions: parseDimensions(get('image-dimensions')),
    fixedRatio: flag(get('fixed-ratio'), false),
    focalPoint: parseFocalPoint(get('image-focal-point')),
    load: loadMode(get('load')),
    forceUpdate: flag(get('force-update'), false),
    mode: parseMode(get('mode')),
    sizeAdjustment: nonNegative(get('size-adjustment'), 1),
    sizeFormat: get('size-format') === 'filename' ? 'filename' : 'queryString',
    stretch: flag(get('stretch'), false),
    useBackgroundImage: flag(get('use-bg-image'), false),
    useAdvancedPositioning: flag(get('use-advanced-positioning'), false),
    allowSaveData: flag(get('allow-save-data'), true),
    minDevicePixelRatio,
    maxDevicePixelRatio: Math.max(minDevicePixelRatio, nonNegative(get('max-device-pixel-ratio'), 3)),
    alignment: alignment(get('alignment')),
    allowConcurrentLoads: flag(get('allow-concurrent-loads'), false),
  };
}
