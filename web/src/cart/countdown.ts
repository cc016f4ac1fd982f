//! The checkout hold's countdown: the seconds left shown as m:ss, and what the shopper reads
//! when the hold has ended and the items are no longer reserved.

/** What the countdown says once the hold has ended (our text; the specification shows none). */
export const HOLD_ENDED_TEXT =
  'Your items are no longer held for you. You can still place your order while they are in stock.';

/** Seconds as the countdown shows them: "9:05". */
export function countdownText(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Seconds left at `nowMs` of a hold that had `seconds` left at `startMs`. */
export function secondsLeft(seconds: number, startMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil(seconds - (nowMs - startMs) / 1000));
}

/** Reads the server's figure: a whole number of seconds, or undefined. */
export function parseSeconds(props: unknown): number | undefined {
  const value = (props as { seconds?: unknown } | null)?.seconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}
