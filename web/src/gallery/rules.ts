//! The gallery rules of spec 001 s4-s5 and s9 in TypeScript: the index machine, preload windows,
//! carousel rows and groups, touch classification and swipe durations. They mirror
//! `vitrine_core::gallery` and are tested against vectors generated from it.

export const GALLERY = {
  autoplayTimeoutMs: 5000,
  kenBurnsZoom: 1.075,
  stackedSpeedMs: 1000,
  stripSpeedMs: 500,
  swipeDistancePx: 50,
  swipeTimeMs: 250,
  tapMaxMovePx: 1,
  axisLockPx: 10,
  swipeNarrowBelowPx: 767,
  swipeNarrowMs: [200, 400] as const,
  swipeWideMs: [300, 500] as const,
  carouselNarrowBelowPx: 480,
  carouselMediumBelowPx: 724,
  mobileMaxWidthPx: 432,
} as const;

export const LIGHTBOX = {
  animationMs: 600,
  overlayOpacity: 0.95,
  overlayFadeMs: 300,
  keyThrottleMs: 200,
  edgeDeadZone: 0.02,
  arrowFadeMs: 500,
} as const;

export type IndexEvent =
  | { event: 'moved'; from: number; to: number }
  | { event: 'unchanged' }
  | { event: 'reached-end' }
  | { event: 'reached-beginning' };

export type IndexRefusal = 'in-motion' | 'empty';
export type IndexOutcome = IndexEvent | { refused: IndexRefusal };

/** The gallery index: +1/-1, wrap or stop at the ends, nothing while in motion. */
export class GalleryIndex {
  current = 0;
  inMotion = false;

  constructor(
    readonly count: number,
    readonly looping: boolean,
  ) {}

  settle(): void {
    this.inMotion = false;
  }

  next(): IndexOutcome {
    return this.step(1);
  }

  previous(): IndexOutcome {
    return this.step(-1);
  }

  step(delta: number): IndexOutcome {
    const refusal = this.refusal();
    if (refusal) return { refused: refusal };
    const target = this.current + delta;
    if (!this.looping) {
      if (target >= this.count) return { event: 'reached-end' };
      if (target < 0) return { event: 'reached-beginning' };
    }
    return this.arrive(target);
  }

  goTo(index: number): IndexOutcome {
    const refusal = this.refusal();
    if (refusal) return { refused: refusal };
    return this.arrive(index);
  }

  get atEnd(): boolean {
    return !this.looping && this.current + 1 >= this.count;
  }

  get atBeginning(): boolean {
    return !this.looping && this.current === 0;
  }

  private refusal(): IndexRefusal | null {
    if (this.count === 0) return 'empty';
    if (this.inMotion) return 'in-motion';
    return null;
  }

  private arrive(target: number): IndexEvent {
    const to = ((target % this.count) + this.count) % this.count;
    if (to === this.current) return { event: 'unchanged' };
    const from = this.current;
    this.current = to;
    this.inMotion = true;
    return { event: 'moved', from, to };
  }
}

/** Slide indexes to load around `current`, ascending. */
export function preloadWindow(current: number, count: number, preload: number, looping: boolean, lazy: boolean): number[] {
  if (count === 0) return [];
  if (!lazy || preload * 2 + 1 >= count) return Array.from({ length: count }, (_, i) => i);
  const at = Math.min(current, count - 1);
  const found = new Set<number>();
  for (let i = at - preload; i <= at + preload; i += 1) {
    if (looping) found.add(((i % count) + count) % count);
    else if (i >= 0 && i < count) found.add(i);
  }
  return [...found].sort((a, b) => a - b);
}

export function slidesPerRowForWidth(configured: number, windowWidth: number): number {
  const perRow = Math.max(1, configured);
  if (windowWidth < GALLERY.carouselNarrowBelowPx && perRow > 1) return 2;
  if (windowWidth < GALLERY.carouselMediumBelowPx && perRow > 2) return 3;
  return perRow;
}

function groupCount(count: number, perRow: number): number {
  return Math.max(1, Math.ceil(count / Math.max(1, perRow)));
}

export function clampGroup(target: number, count: number, perRow: number): number {
  return Math.min(Math.max(target, 0), groupCount(count, perRow) - 1);
}

export interface CarouselControls {
  hidden: boolean;
  previousDisabled: boolean;
  nextDisabled: boolean;
}

export function carouselControls(group: number, count: number, perRow: number): CarouselControls {
  return {
    hidden: count <= Math.max(1, perRow),
    previousDisabled: group === 0,
    nextDisabled: group >= groupCount(count, perRow) - 1,
  };
}

export type Gesture = 'swipeLeft' | 'swipeRight' | 'swipeUp' | 'swipeDown' | 'tap' | 'touchMoveEnd';

export function classifyTouch(dx: number, dy: number, elapsedMs: number): Gesture {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const distance = Math.max(ax, ay);
  if (elapsedMs <= GALLERY.swipeTimeMs && distance >= GALLERY.swipeDistancePx) {
    if (ax >= ay) return dx < 0 ? 'swipeLeft' : 'swipeRight';
    return dy < 0 ? 'swipeUp' : 'swipeDown';
  }
  return distance <= GALLERY.tapMaxMovePx ? 'tap' : 'touchMoveEnd';
}

export function axisLock(dx: number, dy: number): 'x' | 'y' | null {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (Math.max(ax, ay) <= GALLERY.axisLockPx) return null;
  return ax >= ay ? 'x' : 'y';
}

export function swipeDurationMs(windowWidth: number, remainingPx: number, velocityPxPerMs: number): number {
  const [low, high] = windowWidth < GALLERY.swipeNarrowBelowPx ? GALLERY.swipeNarrowMs : GALLERY.swipeWideMs;
  const speed = Math.abs(velocityPxPerMs);
  if (!Number.isFinite(speed) || speed <= Number.EPSILON || !Number.isFinite(remainingPx)) return high;
  return Math.round(Math.min(Math.max(Math.abs(remainingPx) / speed, low), high));
}

export function layoutOfDesign(design: string): string {
  const name = design.trim().toLowerCase();
  if (name === 'slider') return 'strip';
  if (['slideshow', 'grid', 'autogrid', 'autocolumns', 'autorows', 'carousel', 'list'].includes(name)) return name;
  return 'base';
}

export const TRANSITIONS = ['fade', 'ken-burns', 'new-swipe', 'scroll', 'swipe'] as const;
export type TransitionName = (typeof TRANSITIONS)[number];

/** The stacked transition of that name, or the spec's error (001 s5). */
export function parseTransition(name: string): TransitionName {
  if ((TRANSITIONS as readonly string[]).includes(name)) return name as TransitionName;
  throw new Error(`Could not find transition named ${name}`);
}

/**
 * 001 s2 "active-alignment": where the current thumbnail sits in a strip that scrolls, as the
 * strip's scroll offset: its start at the strip's start, its middle at the middle (the default),
 * or its end at the end; never before the strip's first pixel or past its last.
 */
export function stripScrollLeft(
  alignment: 'start' | 'middle' | 'end',
  item: { left: number; width: number },
  strip: { width: number; scrollWidth: number },
): number {
  const slack = strip.width - item.width;
  const wanted = alignment === 'start' ? item.left : alignment === 'end' ? item.left - slack : item.left - slack / 2;
  return Math.min(Math.max(0, wanted), Math.max(0, strip.scrollWidth - strip.width));
}

/** 001 s2 "imageAspectRatio": the CSS `aspect-ratio` of a height given as a percentage of the width. */
export function cssAspectRatio(heightPercent: number | null): string | null {
  return heightPercent !== null && Number.isFinite(heightPercent) && heightPercent > 0 ? `100 / ${heightPercent}` : null;
}
