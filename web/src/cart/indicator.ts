//! The cart indicator (spec 000 s3-s4, 001 s9) as pure state: count and subtotal text, initialised on
//! first sync, empty at 0, the count shown capped at 100 as '100+', and its spoken label.

/** The highest count shown as a number. */
export const DISPLAY_CAP = 100;

export interface CartIndicatorState {
  readonly initialized: boolean;
  readonly items: number;
  readonly subtotal: string;
}

export const INITIAL_INDICATOR: CartIndicatorState = { initialized: false, items: 0, subtotal: '' };

/** The cart's figures arrived: the first sync marks the indicator initialised. */
export function sync(_state: CartIndicatorState, items: number, subtotal: string): CartIndicatorState {
  return { initialized: true, items: Math.max(0, Math.floor(items)), subtotal };
}

/** Marked empty when the count is 0, unmarked otherwise. */
export function isEmpty(state: CartIndicatorState): boolean {
  return state.items === 0;
}

/** The count as shown: a cart of more than 100 items shows '100+' (exactly 100 is not "more than 100"). */
export function displayCount(items: number): string {
  return items > DISPLAY_CAP ? `${DISPLAY_CAP}+` : String(items);
}

/** What a screen reader announces. */
export function spokenLabel(items: number): string {
  if (items === 1) return 'one item';
  if (items > DISPLAY_CAP) return 'more than 100 items';
  return `${items} items in cart`;
}

/** Applies the state to the indicator element's attributes and text. */
export function render(element: HTMLElement, state: CartIndicatorState): void {
  element.toggleAttribute('data-initialized', state.initialized);
  element.toggleAttribute('data-empty', isEmpty(state));
  // The item count as a number, for the native app's cart badge (the text may say '100+').
  element.dataset['items'] = String(state.items);
  element.setAttribute('aria-label', spokenLabel(state.items));
  // A page in another language carries its own label messages (ICU MessageFormat); their
  // formatter loads only on such pages.
  const countMessage = element.dataset['countMessage'];
  const overCapMessage = element.dataset['overCapMessage'];
  if (countMessage && overCapMessage) {
    const locale = element.ownerDocument.documentElement.lang || 'en-US';
    const items = state.items;
    void import('../i18n/messages').then(({ formatMessage }) => {
      try {
        const label =
          items > DISPLAY_CAP ? overCapMessage : formatMessage(countMessage, locale, { count: items });
        if (element.dataset['items'] === String(items)) element.setAttribute('aria-label', label);
      } catch (error) {
        // A message breaking 001 s5 keeps the default label and is reported.
        console.error(error);
      }
    });
  }
  const count = element.querySelector<HTMLElement>('[data-cart-count]');
  if (count) count.textContent = displayCount(state.items);
  const subtotal = element.querySelector<HTMLElement>('[data-cart-subtotal]');
  if (subtotal) subtotal.textContent = state.subtotal;
}
