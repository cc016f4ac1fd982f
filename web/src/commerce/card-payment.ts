//! The card-payment island's rules without the DOM: reading its props, reading the server's
//! answer to the checkout form (confirm the provider's intent, go to the order, or show why not),
//! and the texts it shows. The card is typed into the payment provider's own fields (Stripe's
//! Payment Element), so it is never part of what this code sends.

/** The props the server writes on the checkout form. */
export interface CardPaymentProps {
  readonly publishableKey: string;
  readonly amountMinor: number;
  readonly currency: string;
  /** Where the checkout form is posted (without the card). */
  readonly intentPath: string;
  /** Where a card the provider declined is told, before another is tried on the same intent;
   * without it a decline ends the attempt at the return address. */
  readonly declinedPath?: string;
  /** Whether the card is kept for later payments without the shopper (a subscription's
   * renewals); the provider's fields must be told, as the intent is opened to keep it. */
  readonly saveForRenewals: boolean;
  /** What is paid for: an order (the checkout) or a donation, which the texts name. */
  readonly purpose: CardPaymentPurpose;
}

export type CardPaymentPurpose = 'order' | 'donation';

/** The options the provider's fields are created with, before any intent exists (Stripe's
 * deferred-intent mode): they must agree with the intent the server opens. */
export function elementsOptions(props: CardPaymentProps): Record<string, unknown> {
  return {
    mode: 'payment',
    amount: props.amountMinor,
    currency: props.currency,
    paymentMethodTypes: ['card'],
    ...(props.saveForRenewals ? { setupFutureUsage: 'off_session' } : {}),
  };
}

/** What the browser does next, as the server answers the checkout or donation form; a
 * donation's `order` step leads to the contribution's page. */
export type CardPaymentStep =
  | { readonly next: 'confirm'; readonly clientSecret: string; readonly returnPath: string; readonly amountMinor: number }
  | { readonly next: 'order'; readonly orderPath: string }
  | { readonly next: 'refused'; readonly alert: string; readonly fieldErrors: Readonly<Record<string, string>> };

/** Shown when the provider's script did not load (our text). */
export const CARD_FIELDS_UNAVAILABLE_TEXT =
  'Card payment is unavailable right now: the payment form could not load. Your cart is kept; please reload the page or try again later.';

/** Shown when the server could not be reached (our text). */
export const CHECKOUT_UNREACHABLE_TEXT = 'Your order could not be sent. Please check your connection and try again; nothing was charged.';

/** Shown on the donation page when the provider's script did not load (our text). */
export const DONATION_FIELDS_UNAVAILABLE_TEXT =
  'Card payment is unavailable right now: the payment form could not load. Nothing was charged; please reload the page or try again later.';

/** Shown on the donation page when the server could not be reached (our text). */
export const DONATION_UNREACHABLE_TEXT = 'Your donation could not be sent. Please check your connection and try again; nothing was charged.';

/** The island's own texts for what is paid for. */
export function paymentTexts(purpose: CardPaymentPurpose): { readonly unavailable: string; readonly unreachable: string } {
  return purpose === 'donation'
    ? { unavailable: DONATION_FIELDS_UNAVAILABLE_TEXT, unreachable: DONATION_UNREACHABLE_TEXT }
    : { unavailable: CARD_FIELDS_UNAVAILABLE_TEXT, unreachable: CHECKOUT_UNREACHABLE_TEXT };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the props the server wrote; throws on another shape, so the static markup stays. */
export function parseCardPaymentProps(props: unknown): CardPaymentProps {
  if (!isRecord(props)) throw new Error('card-payment island: props are not an object');
  const { publishableKey, amountMinor, currency, intentPath, declinedPath, saveForRenewals, purpose } = props;
  if (typeof publishableKey !== 'string' || !publishableKey.startsWith('pk_')) {
    throw new Error('card-payment island: a publishable key is required');
  }
  if (typeof amountMinor !== 'number' || !Number.isInteger(amountMinor) || amountMinor < 0) {
    throw new Error('card-payment island: the amount is not a whole number of minor units');
  }
  if (typeof currency !== 'string' || !/^[a-z]{3}$/.test(currency)) throw new Error('card-payment island: the currency is not a code');
  if (typeof intentPath !== 'string' || !intentPath.startsWith('/')) throw new Error('card-payment island: the form path is not a path');
  if (declinedPath !== undefined && (typeof declinedPath !== 'string' || !declinedPath.startsWith('/'))) {
    throw new Error('card-payment island: the declined path is not a path');
  }
  if (saveForRenewals !== undefined && typeof saveForRenewals !== 'boolean') {
    throw new Error('card-payment island: saveForRenewals is not a yes or no');
  }
  if (purpose !== undefined && purpose !== 'order' && purpose !== 'donation') {
    throw new Error('card-payment island: the purpose is neither an order nor a donation');
  }
  return {
    publishableKey,
    amountMinor,
    currency,
    intentPath,
    ...(declinedPath === undefined ? {} : { declinedPath }),
    saveForRenewals: saveForRenewals === true,
    purpose: purpose ?? 'order',
  };
}

/** Reads the server's answer; anything else reads as a refusal saying `unreachable`. */
export function parseCardPaymentStep(value: unknown, unreachable: string = CHECKOUT_UNREACHABLE_TEXT): CardPaymentStep {
  if (isRecord(value)) {
    const amountMinor = value['amountMinor'];
    if (
      value['next'] === 'confirm' &&
      typeof value['clientSecret'] === 'string' &&
      typeof value['returnPath'] === 'string' &&
      typeof amountMinor === 'number' &&
      Number.isInteger(amountMinor) &&
      amountMinor >= 0
    ) {
      return { next: 'confirm', clientSecret: value['clientSecret'], returnPath: value['returnPath'], amountMinor };
    }
    if (value['next'] === 'order' && typeof value['orderPath'] === 'string' && value['orderPath'].startsWith('/')) {
      return { next: 'order', orderPath: value['orderPath'] };
    }
    if (value['next'] === 'refused' && typeof value['alert'] === 'string') {
      const fieldErrors: Record<string, string> = {};
      const given = value['fieldErrors'];
      if (isRecord(given)) {
        for (const [name, message] of Object.entries(given)) {
          if (typeof message === 'string') fieldErrors[name] = message;
        }
      }
      return { next: 'refused', alert: value['alert'], fieldErrors };
    }
  }
  return { next: 'refused', alert: unreachable, fieldErrors: {} };
}

/** What the browser does after the provider declined a card, as the server answers. */
export type DeclinedStep =
  | { readonly next: 'tryAgain'; readonly message: string }
  | { readonly next: 'order'; readonly orderPath: string }
  | { readonly next: 'refused'; readonly alert: string };

/** Reads the server's answer about a declined card; anything else reads as a refusal. */
export function parseDeclinedStep(value: unknown): DeclinedStep {
  if (isRecord(value)) {
    if (value['next'] === 'tryAgain' && typeof value['message'] === 'string') return { next: 'tryAgain', message: value['message'] };
    if (value['next'] === 'order' && typeof value['orderPath'] === 'string' && value['orderPath'].startsWith('/')) {
      return { next: 'order', orderPath: value['orderPath'] };
    }
    if (value['next'] === 'refused' && typeof value['alert'] === 'string') return { next: 'refused', alert: value['alert'] };
  }
  return { next: 'refused', alert: CHECKOUT_UNREACHABLE_TEXT };
}

/** The body telling the server whose intent declined a card: the order, or the donation's
 * contribution, that the return address names. */
export function declinedBody(returnAddress: string, intentId: string): URLSearchParams {
  const named = new URL(returnAddress).searchParams;
  const body = new URLSearchParams();
  for (const name of ['order', 'contribution']) {
    const value = named.get(name);
    if (value !== null) body.append(name, value);
  }
  body.append('paymentIntent', intentId);
  return body;
}

/** What the provider's fields are updated with before confirming: the amount the intent
 * carries. The fields were made with the amount the page showed when it loaded, and the
 * provider refuses to confirm an intent of another amount (a donor may pick another amount,
 * a gift card may pay part of an order). */
export function fieldsUpdate(step: { readonly amountMinor: number }): { readonly amount: number } {
  return { amount: step.amountMinor };
}

/** The checkout form's fields as the server reads them, without anything card-like. */
export function formBody(form: FormData): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string' && !/^card/i.test(name)) body.append(name, value);
  }
  return body;
}

/** The return address the provider sends the shopper back to: absolute, on this site. */
export function returnUrl(returnPath: string, pageUrl: string): string {
  const url = new URL(returnPath, pageUrl);
  if (url.origin !== new URL(pageUrl).origin) throw new Error('card-payment island: the return address is not on this site');
  return url.toString();
}
