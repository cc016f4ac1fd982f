//! Tests of the owner's preview of table-reservation blocks.

import { describe, expect, it } from 'vitest';

import { showReservationPreview } from './reservation-preview';

const ALERT = 'Preview Only: Please log out of your provider account in order to use the reservation block.';

describe('reservation preview', () => {
  it('puts the alert above every reservation block once and makes its widget inert', () => {
    document.body.innerHTML =
      '<div data-reservation><div data-reservation-widget></div></div><div data-reservation></div>';
    expect(showReservationPreview(document, ALERT)).toBe(2);
    showReservationPreview(document, ALERT);
    const alerts = document.querySelectorAll('[role="alert"]');
    expect(alerts).toHaveLength(2);
    expect(alerts[0]!.textContent).toBe(ALERT);
    expect(document.querySelector('[data-reservation-widget]')!.hasAttribute('inert')).toBe(true);
  });
});
