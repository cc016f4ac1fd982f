//! Tests of the menu block's tabs.

import { describe, expect, it } from 'vitest';

import { clickMenuTab, initialMenuTabs, pressMenuKey } from './menu-tabs';

describe('menu tabs', () => {
  it('selects the first tab at first and refuses a menu without tabs', () => {
    expect(initialMenuTabs(3)).toEqual({ count: 3, selected: 0, focused: 0 });
    expect(() => initialMenuTabs(0)).toThrow('A menu needs at least one tab, found 0.');
  });

  it('moves the focus cyclically with the arrows and selects only on Enter or Space', () => {
    let state = initialMenuTabs(3);
    state = pressMenuKey(state, 'ArrowLeft')!;
    expect(state).toEqual({ count: 3, selected: 0, focused: 2 });
    state = pressMenuKey(state, 'ArrowRight')!;
    expect(state.focused).toBe(0);
    state = pressMenuKey(pressMenuKey(state, 'ArrowRight')!, 'Enter')!;
    expect(state).toEqual({ count: 3, selected: 1, focused: 1 });
    state = pressMenuKey(pressMenuKey(state, 'End')!, ' ')!;
    expect(state.selected).toBe(2);
    expect(pressMenuKey(state, 'Home')!.focused).toBe(0);
    expect(pressMenuKey(state, 'a')).toBeUndefined();
  });

  it('selects a clicked tab and ignores an index outside the tabs', () => {
    const state = initialMenuTabs(2);
    expect(clickMenuTab(state, 1)).toEqual({ count: 2, selected: 1, focused: 1 });
    expect(clickMenuTab(state, 5)).toBe(state);
  });
});
