//! The member-access page's pricing toggle island (000 s4). Without JavaScript the page lists
//! the monthly and the yearly price one under the other; this shows the toggle, keeps its
//! buttons' `aria-pressed` true for the selected side only, and shows that side's price.
//! Plain DOM, so its chunk loads no React.

import { INITIAL_SIDE, type PricingSide, parseSide, press } from '../people/pricing-toggle';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement): IslandUnmount {
  const toggle = element.querySelector<HTMLElement>('[data-pricing-toggle]');
  const buttons = [...element.querySelectorAll<HTMLButtonElement>('[data-pricing-toggle] button[data-side]')];
  const options = [...element.querySelectorAll<HTMLElement>('.pricing__option[data-side]')];
  if (toggle === null || buttons.length !== 2) throw new Error('pricing-toggle island: a toggle with a left and a right button is required');
  let side: PricingSide = INITIAL_SIDE;
  const show = () => {
    for (const button of buttons) button.setAttribute('aria-pressed', String(parseSide(button.dataset.side) === side));
    for (const option of options) option.hidden = parseSide(option.dataset.side) !== side;
  };
  const onClick = (event: Event) => {
    const pressed = parseSide((event.currentTarget as HTMLElement).dataset.side);
    if (pressed === undefined) return;
    side = press(side, pressed);
    show();
  };
  for (const button of buttons) button.addEventListener('click', onClick);
  toggle.hidden = false;
  show();
  return () => {
    for (const button of buttons) button.removeEventListener('click', onClick);
    toggle.hidden = true;
    for (const option of options) option.hidden = false;
  };
}
