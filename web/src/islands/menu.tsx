//! Menu block island (block type 18): turns the server's list of menus, all shown, into tabs
//! (000 s4) following the WAI-ARIA tabs pattern: a tablist of buttons, one panel shown, arrows
//! to move between tabs and Enter or Space to select. Plain DOM, so its chunk loads no React.

import { clickMenuTab, initialMenuTabs, pressMenuKey, type MenuTabsState } from '../blocks/menu-tabs';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement): IslandUnmount {
  const doc = element.ownerDocument;
  const menu = element.querySelector<HTMLElement>('[data-menu]');
  const panels = [...element.querySelectorAll<HTMLElement>('[data-menu-panel]')];
  const titles = panels.map((panel) => panel.querySelector<HTMLElement>('[data-menu-title]'));
  if (menu === null || panels.length < 2 || titles.some((title) => title === null)) {
    throw new Error('Vitrine: the menu block needs at least two titled panels to make tabs.');
  }
  let state: MenuTabsState = initialMenuTabs(panels.length);

  const list = doc.createElement('div');
  list.className = 'menu__tabs';
  list.setAttribute('role', 'tablist');
  const tabs = panels.map((panel, index) => {
    const title = titles[index]!;
    const tab = doc.createElement('button');
    tab.type = 'button';
    tab.className = 'menu__tab';
    tab.id = `${panel.id}-tab`;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', panel.id);
    tab.textContent = title.textContent;
    list.append(tab);
    return tab;
  });

  const show = (moveFocus: boolean): void => {
    tabs.forEach((tab, index) => {
      const selected = index === state.selected;
      tab.setAttribute('aria-selected', String(selected));
      // Only the focused tab is in the tab order (roving tabindex).
      tab.tabIndex = index === state.focused ? 0 : -1;
      panels[index]!.hidden = !selected;
    });
    if (moveFocus) tabs[state.focused]!.focus();
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    const next = pressMenuKey(state, event.key);
    if (next === undefined) return;
    event.preventDefault();
    state = next;
    show(true);
  };
  const onClick = (event: Event): void => {
    state = clickMenuTab(state, tabs.indexOf(event.currentTarget as HTMLButtonElement));
    show(false);
  };

  for (const [index, panel] of panels.entries()) {
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tabs[index]!.id);
    panel.tabIndex = 0;
    // The tab shows the title now; the heading stays for the page's outline, read but not shown.
    titles[index]!.classList.add('visually-hidden');
  }
  for (const tab of tabs) {
    tab.addEventListener('keydown', onKeyDown);
    tab.addEventListener('click', onClick);
  }
  menu.prepend(list);
  show(false);

  return () => {
    list.remove();
    for (const [index, panel] of panels.entries()) {
      panel.hidden = false;
      panel.removeAttribute('role');
      panel.removeAttribute('tabindex');
      panel.setAttribute('aria-labelledby', titles[index]!.id);
      titles[index]!.classList.remove('visually-hidden');
    }
  };
}
