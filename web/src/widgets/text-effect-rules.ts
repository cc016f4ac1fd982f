//! The text effect's rules (001 s3, s4), mirrored from the core and checked against its vectors.

import {
  TEXT_EFFECT_ANIMATIONS,
  TEXT_EFFECT_DEFAULT_DURATION_S,
  TEXT_EFFECT_MIN_DURATION_SHARE,
  TEXT_EFFECT_SHAPES,
} from '../generated/widget-constants';

export type TextEffectShape = (typeof TEXT_EFFECT_SHAPES)[number];
export type TextEffectAnimation = (typeof TEXT_EFFECT_ANIMATIONS)[number];
export type TextEffectDirection = 'left' | 'right';

export interface TextEffectOptions {
  readonly shape: TextEffectShape;
  readonly animation: TextEffectAnimation;
  readonly direction: TextEffectDirection;
  readonly linecap: 'butt' | 'round' | 'square';
  /** Seconds for a full run. */
  readonly duration: number;
}

export const DEFAULT_TEXT_EFFECT: TextEffectOptions = {
  shape: 'wave',
  animation: 'draw',
  direction: 'right',
  linecap: 'square',
  duration: TEXT_EFFECT_DEFAULT_DURATION_S,
};

const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/** Reads the island props; anything missing or unknown takes the default. */
export function parseTextEffectOptions(props: unknown): TextEffectOptions {
  const raw = (typeof props === 'object' && props !== null ? props : {}) as Record<string, unknown>;
  const duration = raw['duration'];
  return {
    shape: oneOf(TEXT_EFFECT_SHAPES, raw['shape'], DEFAULT_TEXT_EFFECT.shape),
    animation: oneOf(TEXT_EFFECT_ANIMATIONS, raw['animation'], DEFAULT_TEXT_EFFECT.animation),
    direction: oneOf(['left', 'right'] as const, raw['direction'], DEFAULT_TEXT_EFFECT.direction),
    linecap: oneOf(['butt', 'round', 'square'] as const, raw['linecap'], DEFAULT_TEXT_EFFECT.linecap),
    duration: typeof duration === 'number' && Number.isFinite(duration) && duration > 0 ? duration : DEFAULT_TEXT_EFFECT.duration,
  };
}

/** Where a draw starts: undrawn at -1 for direction right, 1 otherwise; 0 is drawn. */
export function drawStartProgress(direction: TextEffectDirection): number {
  return direction === 'right' ? -1 : 1;
}

/** Seconds a run takes with `distance` of a full run left: scaled, between 0.2 and 1 of the set duration. */
export function scaledDurationS(setDurationS: number, distance: number): number {
  const share = Number.isNaN(distance) ? 1 : Math.min(1, Math.max(TEXT_EFFECT_MIN_DURATION_SHARE, Math.abs(distance)));
  return setDurationS * share;
}

/** Whether a change of options re-runs the effect: shape, animation or direction (001 s4). */
export function needsRerun(before: TextEffectOptions, after: TextEffectOptions): boolean {
  return before.shape !== after.shape || before.animation !== after.animation || before.direction !== after.direction;
}
