import { describe, expect, it } from 'vitest';
import {
  CARD_FIELDS_UNAVAILABLE_TEXT,
  CHECKOUT_UNREACHABLE_TEXT,
  DONATION_FIELDS_UNAVAILABLE_TEXT,
  DONATION_UNREACHABLE_TEXT,
  declinedBody,
  elementsOptions,
  fieldsUpdate,
  formBody,
  parseCardPaymentProps,
  parseCardPaymentStep,
  paymentTexts,
  parseDeclinedStep,
  returnUrl,
} from './card-payment';

describe('card-payment rules', () => {
  it('reads the props the server writes and refuses others', () => {
    const props = {
      publishableKey: 'pk_test_1',
      amountMinor: 3700,
      currency: 'eur',
      intentPath: '/checkout/card-payment',
      declinedPath: '/checkout/card-payment/declined',
      saveForRenewals: false,
      purpose: 'order',
    };
    expect(parseCardPaymentProps(props)).toEqual(props);
    const { saveForRenewals: _, purpose: __, ...older } = props;
    expect(parseCardPaymentProps(older)).toEqual(props);
    expect(parseCardPaymentProps({ ...props, purpose: 'donation' }).purpose).toBe('donation');
    // A donation's fields have no declined path: a decline ends its attempt at the return address.
    const { declinedPath: ___, ...donation } = { ...props, purpose: 'donation' };
    expect(parseCardPaymentProps(donation)).not.toHaveProperty('declinedPath');
    expect(() => parseCardPaymentProps({ ...props, declinedPath: 'https://elsewhere.example/' })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, purpose: 'gift' })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, saveForRenewals: 'yes' })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, publishableKey: 'sk_test_1' })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, amountMinor: 1.5 })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, currency: 'EURO' })).toThrow();
    expect(() => parseCardPaymentProps({ ...props, declinedPath: 'https://elsewhere.example/' })).toThrow();
    expect(() => parseCardPaymentProps(null)).toThrow();
  });

  it('tells the provider fields to keep a subscription card for renewals, and only then', () => {
    const props = { publishableKey: 'pk_test_1', amountMinor: 3700, currency: 'eur', intentPath: '/checkout/card-payment', declinedPath: '/checkout/card-payment/declined' };
    const once = elementsOptions(parseCardPaymentProps(props));
    expect(once).toEqual({ mode: 'payment', amount: 3700, currency: 'eur', paymentMethodTypes: ['card'] });
    const kept = elementsOptions(parseCardPaymentProps({ ...props, saveForRenewals: true }));
    expect(kept).toEqual({ ...once, setupFutureUsage: 'off_session' });
  });

  it('names a donation in the texts of a donation, and an order otherwise', () => {
    expect(paymentTexts('donation')).toEqual({ unavailable: DONATION_FIELDS_UNAVAILABLE_TEXT, unreachable: DONATION_UNREACHABLE_TEXT });
    expect(paymentTexts('order')).toEqual({ unavailable: CARD_FIELDS_UNAVAILABLE_TEXT, unreachable: CHECKOUT_UNREACHABLE_TEXT });
    expect(parseCardPaymentStep(undefined, DONATION_UNREACHABLE_TEXT)).toEqual({ next: 'refused', alert: DONATION_UNREACHABLE_TEXT, fieldErrors: {} });
  });

  it('reads each next step, and anything else as a refusal to try again', () => {
    expect(parseCardPaymentStep({ next: 'confirm', clientSecret: 'pi_1_secret_2', returnPath: '/r?order=o', amountMinor: 3700 })).toEqual({
      next: 'confirm',
      clientSecret: 'pi_1_secret_2',
      returnPath: '/r?order=o',
      amountMinor: 3700,
    });
    // Without the intent's amount the fields could not be told it: nothing is confirmed.
    expect(parseCardPaymentStep({ next: 'confirm', clientSecret: 'pi_1_secret_2', returnPath: '/r?order=o' }).next).toBe('refused');
    expect(parseCardPaymentStep({ next: 'confirm', clientSecret: 'pi_1_secret_2', returnPath: '/r?order=o', amountMinor: 2.5 }).next).toBe('refused');
    expect(parseCardPaymentStep({ next: 'order', orderPath: '/commerce/orders/o/confirmed' })).toEqual({
      next: 'order',
      orderPath: '/commerce/orders/o/confirmed',
    });
    expect(parseCardPaymentStep({ next: 'order', orderPath: 'https://elsewhere.example/' }).next).toBe('refused');
    expect(parseCardPaymentStep({ next: 'refused', alert: 'Fix it', fieldErrors: { email: 'Required', x: 1 } })).toEqual({
      next: 'refused',
      alert: 'Fix it',
      fieldErrors: { email: 'Required' },
    });
    expect(parseCardPaymentStep('<html>')).toEqual({ next: 'refused', alert: CHECKOUT_UNREACHABLE_TEXT, fieldErrors: {} });
  });

  it('reads the answer about a declined card, and anything else as a refusal', () => {
    expect(parseDeclinedStep({ next: 'tryAgain', message: 'Your card was declined.' })).toEqual({
      next: 'tryAgain',
      message: 'Your card was declined.',
    });
    expect(parseDeclinedStep({ next: 'order', orderPath: '/commerce/orders/o/confirmed', alert: null })).toEqual({
      next: 'order',
      orderPath: '/commerce/orders/o/confirmed',
    });
    expect(parseDeclinedStep({ next: 'order', orderPath: 'https://elsewhere.example/' }).next).toBe('refused');
    expect(parseDeclinedStep({ next: 'refused', alert: 'Please try again.' })).toEqual({ next: 'refused', alert: 'Please try again.' });
    expect(parseDeclinedStep('nonsense')).toEqual({ next: 'refused', alert: CHECKOUT_UNREACHABLE_TEXT });
  });

  it('names the order of the return address and the declined intent', () => {
    const body = declinedBody('https://shop.example/checkout/card-payment/return?order=order-1', 'pi_1');
    expect(body.toString()).toBe('order=order-1&paymentIntent=pi_1');
  });

  it('names the contribution of a donation’s return address and the declined intent', () => {
    const body = declinedBody('https://shop.example/checkout/donate/card-payment/return?contribution=contribution-1', 'pi_2');
    expect(body.toString()).toBe('contribution=contribution-1&paymentIntent=pi_2');
  });

  it('gives the fields the amount the intent carries, not the one the page loaded with', () => {
    const props = parseCardPaymentProps({
      publishableKey: 'pk_test_1',
      amountMinor: 2500,
      currency: 'eur',
      intentPath: '/checkout/donate/card-payment?donatePageId=kiln',
      declinedPath: '/checkout/donate/card-payment/declined',
      purpose: 'donation',
    });
    const step = parseCardPaymentStep({ next: 'confirm', clientSecret: 'pi_1_secret_2', returnPath: '/r?contribution=c', amountMinor: 5000 });
    if (step.next !== 'confirm') throw new Error('a confirm step');
    expect(elementsOptions(props)['amount']).toBe(2500);
    expect(fieldsUpdate(step)).toEqual({ amount: 5000 });
  });

  it('never sends a card field', () => {
    const form = new FormData();
    form.append('email', 'ada@example.com');
    form.append('cardNumber', '4242424242424242');
    form.append('idempotencyKey', 'k');
    expect(formBody(form).toString()).toBe('email=ada%40example.com&idempotencyKey=k');
  });

  it('returns only to this site', () => {
    expect(returnUrl('/checkout/card-payment/return?order=o', 'http://127.0.0.1:1/checkout')).toBe(
      'http://127.0.0.1:1/checkout/card-payment/return?order=o',
    );
    expect(() => returnUrl('https://evil.example/', 'http://127.0.0.1:1/checkout')).toThrow();
  });
});
