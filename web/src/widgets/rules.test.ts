//! The widget rules agree with the Rust core on every generated vector.

import { describe, expect, it } from 'vitest';
import generated from '../generated/widget-vectors.json';

interface Props {
  direction: string;
  speed: number;
  waveFrequency: number;
  waveIntensity: number;
}
interface Vectors {
  textEffectDuration: { set: number; distance: number; seconds: number }[];
  marquee: {
    segmentWidth: [number, number][];
    itemWidth: [number, number][];
    regionRuns: [number, boolean][];
    copies: [number, number, number][];
    offset: { props: Props; measured: number; elapsedMs: number; offset: number }[];
    wave: { props: Props; measured: number; x: number; offset: number }[];
  };
  tooltipPosition: { anchor: number[]; viewport: number[]; height: number; width: number; position: number[] }[];
  popupTimers: { kind: string; timer: number | null; autoHideMs: number | null; buttons: string[] }[];
  throttle: { runs: number[]; waitMs: number }[];
  relativeTime: { seconds: number; bucket: string; count: number | null; english: string }[];
  fileSize: [number, string][];
}
const vectors = generated as unknown as Vectors;
const marqueeProps = (p: Props) =>
  parseMarqueeOptions({ animationDirection: p.direction, animationSpeed: p.speed, waveFrequency: p.waveFrequency, waveIntensity: p.waveIntensity });
import { copiesNeeded, itemWidthPx, offsetPx, parseMarqueeOptions, regionRuns, segmentWidthPx, waveOffsetPx } from './marquee-rules';
import { scaledDurationS } from './text-effect-rules';
import { tooltipPosition, tooltipWidthPx } from './tooltip-rules';
import { throttleWaitMs } from './timing';
import { formatRelative, humanFileSize, relativeBucket } from './human';
import { autoHideMs, POPUP_BUTTONS } from './popup-rules';

const close = (actual: number, expected: number) => expect(actual).toBeCloseTo(expected, 9);

describe('widget vectors from the Rust core', () => {
  it.each(vectors.textEffectDuration)('a run of $set s with $distance left takes $seconds s', ({ set, distance, seconds }) => {
    close(scaledDurationS(set, distance), seconds);
  });

  it('marquee segments, regions and copies', () => {
    for (const [measured, width] of vectors.marquee.segmentWidth) expect(segmentWidthPx(measured)).toBe(width);
    for (const [measured, width] of vectors.marquee.itemWidth) expect(itemWidthPx(measured)).toBe(width);
    for (const [width, runs] of vectors.marquee.regionRuns) expect(regionRuns(width)).toBe(runs);
    for (const [region, measured, copies] of vectors.marquee.copies) expect(copiesNeeded(region, measured)).toBe(copies);
  });

  it('marquee offsets and waves', () => {
    expect(vectors.marquee.offset.length).toBeGreaterThan(10);
    for (const v of vectors.marquee.offset) close(offsetPx(marqueeProps(v.props), v.measured, v.elapsedMs), v.offset);
    for (const v of vectors.marquee.wave) close(waveOffsetPx(marqueeProps(v.props), v.measured, v.x), v.offset);
  });

  it.each(vectors.tooltipPosition)('tooltip at $anchor in $viewport', ({ anchor, viewport, height, width, position }) => {
    expect(tooltipWidthPx(viewport[0]!)).toBe(width);
    expect(tooltipPosition([anchor[0]!, anchor[1]!], [viewport[0]!, viewport[1]!], height)).toEqual(position);
  });

  it.each(vectors.popupTimers)('$kind popup with timer $timer', ({ kind, timer, autoHideMs: expected, buttons }) => {
    expect(autoHideMs(kind as 'alert', timer ?? undefined)).toBe(expected ?? undefined);
    expect(POPUP_BUTTONS[kind as 'alert']).toEqual(buttons);
  });

  it.each(vectors.throttle)('throttle after $runs waits $waitMs', ({ runs, waitMs }) => {
    close(throttleWaitMs(runs), waitMs);
  });

  it.each(vectors.relativeTime)('$seconds s ago is $english', ({ seconds, bucket, count, english }) => {
    expect(relativeBucket(seconds * 1000)).toEqual({ bucket, count });
    expect(formatRelative(relativeBucket(seconds * 1000), 'en-GB')).toBe(english);
  });

  it.each(vectors.fileSize)('%d bytes read %s', (bytes, shown) => {
    expect(humanFileSize(bytes)).toBe(shown);
  });
});

describe('relative times in other languages', () => {
  it('speak through Intl', () => {
    expect(formatRelative(relativeBucket(3 * 60_000), 'pt-PT')).toBe(new Intl.RelativeTimeFormat('pt-PT', { numeric: 'auto' }).format(-3, 'minute'));
    expect(formatRelative(relativeBucket(0), 'de')).toBe(new Intl.RelativeTimeFormat('de', { numeric: 'auto' }).format(0, 'second'));
  });
});
