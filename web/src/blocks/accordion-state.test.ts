//! Tests of the accordion rules: toggling, single-open, first open, animating flag.

import { describe, expect, it } from 'vitest';
import {
  accordionReducer,
  initialAccordionState,
  isAnimating,
  parseAccordionOptions,
  startedAnimation,
  type AccordionOptions,
} from './accordion-state';

const single: AccordionOptions = { allowMultiple: false, firstOpen: false };
const multiple: AccordionOptions = { allowMultiple: true, firstOpen: false };

describe('accordion options', () => {
  it('reads the server props, with defaults for anything missing or not a boolean', () => {
    expect(parseAccordionOptions({ allowMultiple: true, firstOpen: true })).toEqual({ allowMultiple: true, firstOpen: true });
    expect(parseAccordionOptions({ allowMultiple: 'yes' })).toEqual({ allowMultiple: false, firstOpen: false });
    expect(parseAccordionOptions(null)).toEqual({ allowMultiple: false, firstOpen: false });
  });
});

describe('accordion initial state', () => {
  it('opens the first item when the block asks and nothing is open', () => {
    expect(initialAccordionState([false, false, false], { ...single, firstOpen: true }).open).toEqual([true, false, false]);
  });

  it('starts all closed otherwise, at rest', () => {
    const state = initialAccordionState([false, false], single);
    expect(state.open).toEqual([false, false]);
    expect([0, 1].map((i) => isAnimating(state, i))).toEqual([false, false]);
  });

  it('keeps what the page shows, but only one open item in a single-open block', () => {
    expect(initialAccordionState([false, true, true], { ...single, firstOpen: true }).open).toEqual([false, true, false]);
    expect(initialAccordionState([false, true, true], multiple).open).toEqual([false, true, true]);
  });

  it('handles a block without items', () => {
    expect(initialAccordionState([], { ...single, firstOpen: true }).open).toEqual([]);
  });
});

describe('accordion toggling', () => {
  it('clicking toggles an item open and closed', () => {
    const start = initialAccordionState([false, false], single);
    const opened = accordionReducer(start, { type: 'toggle', index: 1 });
    expect(opened.open).toEqual([false, true]);
    expect(accordionReducer(opened, { type: 'toggle', index: 1 }).open).toEqual([false, false]);
  });

  it('opening one closes the others in a single-open block', () => {
    const start = initialAccordionState([true, false, false], single);
    expect(accordionReducer(start, { type: 'toggle', index: 2 }).open).toEqual([false, false, true]);
  });

  it('opening one leaves the others open when the block allows multiple', () => {
    const start = initialAccordionState([true, false, false], multiple);
    expect(accordionReducer(start, { type: 'toggle', index: 2 }).open).toEqual([true, false, true]);
  });

  it('closing one never opens another', () => {
    const start = initialAccordionState([false, true], single);
    expect(accordionReducer(start, { type: 'toggle', index: 1 }).open).toEqual([false, false]);
  });

  it('ignores an index outside the block', () => {
    const start = initialAccordionState([false], single);
    expect(accordionReducer(start, { type: 'toggle', index: 3 })).toBe(start);
    expect(accordionReducer(start, { type: 'toggle', index: -1 })).toBe(start);
  });

  it('follows an item the browser opened, with the same rules', () => {
    const start = initialAccordionState([true, false], single);
    expect(accordionReducer(start, { type: 'set', index: 1, open: true }).open).toEqual([false, true]);
    expect(accordionReducer(start, { type: 'set', index: 0, open: true })).toBe(start);
  });
});

describe('accordion animating flag', () => {
  it('marks every item that changed as animating until its animation ends', () => {
    const start = initialAccordionState([true, false, false], single);
    const next = accordionReducer(start, { type: 'toggle', index: 1 });
    expect([0, 1, 2].map((i) => isAnimating(next, i))).toEqual([true, true, false]);
    const animation = startedAnimation(start, next)!;
    const rest = accordionReducer(next, { type: 'animation-end', animation });
    expect([0, 1, 2].map((i) => isAnimating(rest, i))).toEqual([false, false, false]);
  });

  it('an older animation ending does not cut a newer one on the same item short', () => {
    const start = initialAccordionState([false], single);
    const opened = accordionReducer(start, { type: 'toggle', index: 0 });
    const closed = accordionReducer(opened, { type: 'toggle', index: 0 });
    const afterFirstEnds = accordionReducer(closed, { type: 'animation-end', animation: startedAnimation(start, opened)! });
    expect(isAnimating(afterFirstEnds, 0)).toBe(true);
    const afterSecondEnds = accordionReducer(afterFirstEnds, {
      type: 'animation-end',
      animation: startedAnimation(opened, closed)!,
    });
    expect(isAnimating(afterSecondEnds, 0)).toBe(false);
  });

  it('starts no animation when nothing changed', () => {
    const start = initialAccordionState([false], single);
    expect(startedAnimation(start, accordionReducer(start, { type: 'set', index: 0, open: false }))).toBeUndefined();
  });
});
