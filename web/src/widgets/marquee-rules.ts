//! The marquee band's geometry (001 s3, s9), mirrored from the core and checked against its vectors.

import {
  MARQUEE_BASE_SPEED_PX_PER_S,
  MARQUEE_MAX_SEGMENT_WIDTH_PX,
  MARQUEE_MIN_REGION_WIDTH_PX,
  MARQUEE_MIN_SEGMENT_WIDTH_PX,
  MARQUEE_WAVE_PX_PER_INTENSITY,
} from '../generated/widget-constants';

export interface MarqueeOptions {
  readonly waveFrequency: number;
  readonly waveIntensity: number;
  readonly animationDirection: 'left' | 'right';
  readonly animationSpeed: number;
  readonly pausedOnHover: boolean;
}

/** The props of 001 s3 with their defaults. */
export const DEFAULT_MARQUEE: MarqueeOptions = {
  waveFrequency: 1,
  waveIntensity: 0,
  animationDirection: 'left',
  animationSpeed: 1,
  pausedOnHover: false,
};

export function parseMarqueeOptions(props: unknown): MarqueeOptions {
  const raw = (typeof props === 'object' && props !== null ? props : {}) as Record<string, unknown>;
  const number = (key: keyof MarqueeOptions): number => {
    const value = raw[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : (DEFAULT_MARQUEE[key] as number);
  };
  return {
    waveFrequency: number('waveFrequency'),
    waveIntensity: number('waveIntensity'),
    animationDirection: raw['animationDirection'] === 'right' ? 'right' : 'left',
    animationSpeed: number('animationSpeed'),
    pausedOnHover: raw['pausedOnHover'] === true,
  };
}

export function segmentWidthPx(measured: number): number {
  if (Number.isNaN(measured)) return MARQUEE_MIN_SEGMENT_WIDTH_PX;
  return Math.min(MARQUEE_MAX_SEGMENT_WIDTH_PX, Math.max(MARQUEE_MIN_SEGMENT_WIDTH_PX, measured));
}

/** One copy's width in the band: the measured text, at least 250 px. The band loops by it. */
export function itemWidthPx(measured: number): number {
  return Number.isFinite(measured) ? Math.max(MARQUEE_MIN_SEGMENT_WIDTH_PX, measured) : MARQUEE_MIN_SEGMENT_WIDTH_PX;
}

export function regionRuns(regionWidth: number): boolean {
  return regionWidth >= MARQUEE_MIN_REGION_WIDTH_PX;
}

export function copiesNeeded(regionWidth: number, measured: number): number {
  const width = itemWidthPx(measured);
  const region = Number.isFinite(regionWidth) ? Math.max(0, regionWidth) : 0;
  const fill = Math.min(64, Math.ceil(region / width));
  return Math.max(2, fill + 1);
}

export function offsetPx(options: MarqueeOptions, measured: number, elapsedMs: number): number {
  const width = itemWidthPx(measured);
  const speed = Number.isFinite(options.animationSpeed) && options.animationSpeed > 0 ? options.animationSpeed : 0;
  const travelled = ((MARQUEE_BASE_SPEED_PX_PER_S * speed * Math.max(0, elapsedMs)) / 1000) % width;
  return options.animationDirection === 'left' ? -travelled : travelled - width;
}

export function waveOffsetPx(options: MarqueeOptions, measured: number, x: number): number {
  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  const intensity = finite(options.waveIntensity);
  const frequency = finite(options.waveFrequency);
  if (intensity === 0 || frequency === 0) return 0;
  const phase = (2 * Math.PI * frequency * finite(x)) / segmentWidthPx(measured);
  return intensity * MARQUEE_WAVE_PX_PER_INTENSITY * Math.sin(phase);
}
