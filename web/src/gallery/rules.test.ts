//! The gallery rules against the vectors generated from the core's Rust rules.

import { describe, expect, it } from 'vitest';

import vectors from '../generated/gallery-vectors.json';
import {
  GalleryIndex,
  axisLock,
  carouselControls,
  clampGroup,
  classifyTouch,
  cssAspectRatio,
  layoutOfDesign,
  parseTransition,
  preloadWindow,
  slidesPerRowForWidth,
  stripScrollLeft,
  swipeDurationMs,
  type IndexOutcome,
} from './rules';

describe('gallery rules match the core', () => {
  it('moves the index as the core does', () => {
    const mismatches: unknown[] = [];
    for (const script of vectors.index) {
      const index = new GalleryIndex(script.count, script.loop);
      for (const step of script.steps) {
        let outcome: IndexOutcome | null = null;
        if (step.op === 'next') outcome = index.next();
        else if (step.op === 'previous') outcome = index.previous();
        else if (step.op === 'settle') index.settle();
        else outcome = index.goTo(step.op as number);
        const got = { outcome, current: index.current, atEnd: index.atEnd, atBeginning: index.atBeginning };
        const want = { outcome: step.outcome, current: step.current, atEnd: step.atEnd, atBeginning: step.atBeginning };
        if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push({ script, step, got });
      }
    }
    expect(vectors.index.length).toBeGreaterThan(30);
    expect(mismatches).toEqual([]);
  });

  it('preloads the same windows', () => {
    const wrong = vectors.preload.filter((v) => JSON.stringify(preloadWindow(v.current, v.count, v.preload, v.loop, v.lazy)) !== JSON.stringify(v.window));
    expect(wrong).toEqual([]);
  });

  it('shrinks carousel rows and clamps groups the same way', () => {
    for (const v of vectors.carousel) {
      if (v.kind === 'row') expect(slidesPerRowForWidth(v.perRow, v.width!), JSON.stringify(v)).toBe(v.shown);
      else {
        const group = clampGroup(v.target!, v.count!, v.perRow);
        expect(group, JSON.stringify(v)).toBe(v.group);
        expect(carouselControls(group, v.count!, v.perRow)).toEqual(v.controls);
      }
    }
  });

  it('classifies touches and locks axes the same way', () => {
    const wrong = vectors.gestures.filter((v) => classifyTouch(v.dx, v.dy, v.elapsedMs) !== v.gesture || axisLock(v.dx, v.dy) !== v.axis);
    expect(vectors.gestures.length).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('clamps swipe durations the same way', () => {
    const wrong = vectors.swipeDurations.filter((v) => swipeDurationMs(v.width, v.remaining, v.velocity) !== v.ms);
    expect(wrong).toEqual([]);
  });

  it('maps designs and names transitions the same way', () => {
    for (const v of vectors.naming.layouts) expect(layoutOfDesign(v.design)).toBe(v.layout);
    for (const v of vectors.naming.transitions) {
      if ('error' in v) expect(() => parseTransition(v.name)).toThrow(v.error);
      else expect(parseTransition(v.name)).toBe(v.transition);
    }
  });
});

describe('thumbnail strips and aspect ratios', () => {
  const strip = { width: 300, scrollWidth: 1000 };
  const item = { left: 500, width: 100 };

  it('put the current thumbnail at the start, middle or end of the strip', () => {
    expect(stripScrollLeft('start', item, strip)).toBe(500);
    expect(stripScrollLeft('middle', item, strip)).toBe(400);
    expect(stripScrollLeft('end', item, strip)).toBe(300);
  });

  it('never scroll before the first thumbnail or past the last', () => {
    expect(stripScrollLeft('end', { left: 0, width: 100 }, strip)).toBe(0);
    expect(stripScrollLeft('middle', { left: 50, width: 100 }, strip)).toBe(0);
    expect(stripScrollLeft('start', { left: 900, width: 100 }, strip)).toBe(700);
  });

  it('turn a height percentage into a CSS aspect ratio, and nothing else', () => {
    expect(cssAspectRatio(50)).toBe('100 / 50');
    expect(cssAspectRatio(null)).toBeNull();
    expect(cssAspectRatio(0)).toBeNull();
    expect(cssAspectRatio(Number.NaN)).toBeNull();
  });
});
