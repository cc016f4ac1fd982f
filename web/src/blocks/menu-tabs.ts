//! The menu block's tabs (000 s4): one tab selected at a time, the first at first; Enter or
//! Space selects the focused tab; the left and right arrows move the focus cyclically, and Home
//! and End to the first and last tab (the WAI-ARIA tabs pattern with manual activation).

export interface MenuTabsState {
  readonly count: number;
  readonly selected: number;
  readonly focused: number;
}

export type MenuTabsKey = 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End' | 'Enter' | ' ';

export function initialMenuTabs(count: number): MenuTabsState {
  if (!Number.isInteger(count) || count < 1) throw new Error(`A menu needs at least one tab, found ${count}.`);
  return { count, selected: 0, focused: 0 };
}

/** The state after `key` on the focused tab, or undefined for a key the tabs do not handle. */
export function pressMenuKey(state: MenuTabsState, key: string): MenuTabsState | undefined {
  const { count, focused } = state;
  switch (key) {
    case 'ArrowRight':
      return { ...state, focused: (focused + 1) % count };
    case 'ArrowLeft':
      return { ...state, focused: (focused - 1 + count) % count };
    case 'Home':
      return { ...state, focused: 0 };
    case 'End':
      return { ...state, focused: count - 1 };
    case 'Enter':
    case ' ':
      return { ...state, selected: focused };
    default:
      return undefined;
  }
}

/** A click selects the tab clicked and moves the focus there. */
export function clickMenuTab(state: MenuTabsState, index: number): MenuTabsState {
  if (!Number.isInteger(index) || index < 0 || index >= state.count) return state;
  return { ...state, selected: index, focused: index };
}
