//! Fills the checkout form as a shopper does, field by field through the labels, so every
//! browser test that buys something goes through the same form the same way.

import type { Page } from '@playwright/test';

export interface CheckoutDetails {
  readonly email: string;
  readonly name: string;
  readonly address: string;
  readonly city: string;
  /** Left empty when the address has no region (the field is optional). */
  readonly region?: string;
  readonly postalCode: string;
  readonly country: string;
}

/** The test gateway's card that pays. */
export const PAYING_CARD = '4242 4242 4242 4242';

/** Fills contact, address, the standard shipping option and the paying card; does not submit. */
export async function fillCheckout(page: Page, details: CheckoutDetails): Promise<void> {
  await page.getByLabel('Email').fill(details.email);
  await page.getByLabel('Full name').fill(details.name);
  await page.getByLabel('Address', { exact: true }).fill(details.address);
  await page.getByLabel('City').fill(details.city);
  if (details.region !== undefined) await page.getByLabel('State or region').fill(details.region);
  await page.getByLabel('Zip or postal code').fill(details.postalCode);
  await page.getByLabel('Country code').fill(details.country);
  await page.getByRole('radio', { name: /Standard shipping/ }).check();
  await page.getByLabel('Card number').fill(PAYING_CARD);
  await page.getByLabel('Expiry date (MM/YY)').fill('12/40');
  await page.getByLabel('Security code').fill('123');
}

/**
 * Enters checkout as the cart's Checkout button does: a same-origin form POST to
 * `/commerce/goto-checkout` (entering holds stock, so a GET no longer does it). Posting a form
 * built in the page works with an empty cart too, where the cart page shows no button.
 */
export async function enterCheckout(page: Page): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/');
  await Promise.all([
    page.waitForNavigation(),
    page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/commerce/goto-checkout';
      document.body.append(form);
      form.submit();
    }),
  ]);
}
