//! The table-reservation block as a signed-in owner sees it (000 s6): preview only, with the
//! server's alert above each such block, and its widget out of reach. The alert comes from the
//! owner's part of the page context, never from the cached page. A chunk of its own, loaded
//! only for an owner on a page with the block.

export const RESERVATION_SELECTOR = '[data-reservation]';

/** Adds `alert` to every table-reservation block of `doc` once; returns how many it marked. */
export function showReservationPreview(doc: Document, alert: string): number {
  const blocks = [...doc.querySelectorAll<HTMLElement>(RESERVATION_SELECTOR)];
  for (const block of blocks) {
    if (block.querySelector('[data-reservation-preview]') !== null) continue;
    const message = doc.createElement('p');
    message.className = 'reservation__preview';
    message.setAttribute('role', 'alert');
    message.dataset['reservationPreview'] = '';
    message.textContent = alert;
    block.prepend(message);
    block.querySelector<HTMLElement>('[data-reservation-widget]')?.setAttribute('inert', '');
  }
  return blocks.length;
}
