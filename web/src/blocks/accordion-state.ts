//! Accordion rules (spec 000 s4) as a pure reducer: toggling, single-open, first item open, animating flag.

export interface AccordionOptions {
  /** Several items may be open at once; otherwise opening one closes the others. */
  readonly allowMultiple: boolean;
  /** The first item starts open. */
  readonly firstOpen: boolean;
}

export interface AccordionState {
  readonly options: AccordionOptions;
  readonly open: readonly boolean[];
  /**
   * Per item, the id of the change whose animation is still running, or 0 when the item is at
   * rest. An id rather than a flag, so that ending an older animation does not cut a newer one short.
   */
  readonly animation: readonly number[];
  /** Id the next change will use. */
  readonly nextAnimation: number;
}

export type AccordionAction =
  /** The visitor clicked an item's title or pressed Enter or Space on it. */
  | { readonly type: 'toggle'; readonly index: number }
  /** Something else opened or closed an item (e.g. the browser's find-in-page opening a <details>). */
  | { readonly type: 'set'; readonly index: number; readonly open: boolean }
  /** The animation with this id has run its course (ACCORDION_ANIMATION_MS after the change). */
  | { readonly type: 'animation-end'; readonly animation: number };

const DEFAULT_OPTIONS: AccordionOptions = { allowMultiple: false, firstOpen: false };

/** Reads the island props written by the server; anything missing or not a boolean takes its default. */
export function parseAccordionOptions(props: unknown): AccordionOptions {
  const record = typeof props === 'object' && props !== null ? (props as Record<string, unknown>) : {};
  const flag = (key: keyof AccordionOptions): boolean => {
    const value = record[key];
    return typeof value === 'boolean' ? value : DEFAULT_OPTIONS[key];
  };
  return { allowMultiple: flag('allowMultiple'), firstOpen: flag('firstOpen') };
}

/**
 * The state at mount. `domOpen` is what the page shows now (the server's `open` attributes, or
 * what the visitor did before the island loaded), which wins. When nothing is open and the block
 * wants its first item open, the first item opens; a single-open block keeps only the first open item.
 */
export function initialAccordionState(domOpen: readonly boolean[], options: AccordionOptions): AccordionState {
  let open = [...domOpen];
  if (options.firstOpen && open.length > 0 && !open.includes(true)) open[0] = true;
  if (!options.allowMultiple) {
    const first = open.indexOf(true);
    open = open.map((_, index) => index === first);
  }
  return { options, open, animation: open.map(() => 0), nextAnimation: 1 };
}

export function accordionReducer(state: AccordionState, action: AccordionAction): AccordionState {
  switch (action.type) {
    case 'toggle': {
      const current = state.open[action.index];
      return current === undefined ? state : setOpen(state, action.index, !current);
    }
    case 'set':
      return state.open[action.index] === action.open ? state : setOpen(state, action.index, action.open);
    case 'animation-end': {
      if (!state.animation.includes(action.animation)) return state;
      const animation = state.animation.map((id) => (id === action.animation ? 0 : id));
      return { ...state, animation };
    }
  }
}

/** The id of the animation a state change started, to end it later; undefined when nothing changed. */
export function startedAnimation(before: AccordionState, after: AccordionState): number | undefined {
  return after.nextAnimation !== before.nextAnimation ? before.nextAnimation : undefined;
}

export function isAnimating(state: AccordionState, index: number): boolean {
  return (state.animation[index] ?? 0) !== 0;
}

function setOpen(state: AccordionState, index: number, open: boolean): AccordionState {
  if (index < 0 || index >= state.open.length) return state;
  const id = state.nextAnimation;
  const next = state.open.map((isOpen, i) => {
    if (i === index) return open;
    // Opening one item closes the others unless the block allows several open at once.
    return open && !state.options.allowMultiple ? false : isOpen;
  });
  const animation = state.animation.map((current, i) => (next[i] !== state.open[i] ? id : current));
  return { ...state, open: next, animation, nextAnimation: id + 1 };
}
