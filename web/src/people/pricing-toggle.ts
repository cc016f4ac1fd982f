//! The member-area pricing toggle of 000 s4: it flips between its left and right options
//! (monthly and yearly prices), exactly one pressed at a time. Pure state, apart from React
//! and the DOM.

export type PricingSide = 'left' | 'right';

/** The side shown first: the left option (the monthly price). */
export const INITIAL_SIDE: PricingSide = 'left';

/** The side a press of `pressed` leaves selected: that side, whatever was selected. */
export function press(_current: PricingSide, pressed: PricingSide): PricingSide {
  return pressed;
}

/** The other side: what a flip selects. */
export function flip(current: PricingSide): PricingSide {
  return current === 'left' ? 'right' : 'left';
}

/** Reads a side from a `data-side` attribute; anything else is not a side. */
export function parseSide(value: string | null | undefined): PricingSide | undefined {
  return value === 'left' || value === 'right' ? value : undefined;
}
