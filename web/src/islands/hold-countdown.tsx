//! The checkout hold's countdown island: ticks the server's "held for m:ss" down once a second
//! and says when the hold has ended. Plain DOM, so its chunk loads no React.

import { HOLD_ENDED_TEXT, countdownText, parseSeconds, secondsLeft } from '../cart/countdown';
import type { IslandUnmount } from '../runtime/island-contract';

export function mount(element: HTMLElement, props: unknown): IslandUnmount {
  const seconds = parseSeconds(props);
  const time = element.querySelector<HTMLElement>('[data-countdown-seconds]');
  if (seconds === undefined || time === null) throw new Error('hold-countdown island: seconds and the time element are required');
  const original = [...element.childNodes];
  const start = Date.now();
  const tick = () => {
    const left = secondsLeft(seconds, start, Date.now());
    if (left > 0) {
      time.textContent = countdownText(left);
      return;
    }
    clearInterval(timer);
    // Said once, politely, rather than announcing every second of the countdown.
    element.setAttribute('role', 'status');
    element.replaceChildren(HOLD_ENDED_TEXT);
  };
  const timer = setInterval(tick, 1000);
  tick();
  return () => {
    clearInterval(timer);
    element.removeAttribute('role');
    element.replaceChildren(...original);
  };
}
