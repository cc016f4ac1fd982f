//! The card-payment island on a donation form, with a stand-in of the provider's script and a
//! mocked fetch: before confirming it gives the fields the amount the intent carries (the
//! donor chose another than the page loaded with), and a declined card is told to the
//! donation's declined path, naming the contribution, whose answer it shows while the donor
//! types another card; the next submit confirms the same intent again.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from './card-payment';

const PROPS = {
  publishableKey: 'pk_test_1',
  amountMinor: 2500,
  currency: 'eur',
  intentPath: '/checkout/donate/card-payment?donatePageId=kiln',
  declinedPath: '/checkout/donate/card-payment/declined',
  saveForRenewals: false,
  purpose: 'donation',
};

const DECLINED = 'Your card was declined. Please use another card.';

function donationForm(): HTMLFormElement {
  document.body.innerHTML = `
    <form>
      <input type="radio" name="amount" value="5000" checked>
      <input name="idempotencyKey" value="0123456789abcdef">
      <div id="checkout-card-fields"></div>
      <p id="checkout-alert" role="alert" hidden></p>
      <button type="submit">Donate</button>
    </form>`;
  return document.querySelector('form')!;
}

/** The provider's script: records what the island asks of it, in order. */
function provider(calls: string[]) {
  let confirms = 0;
  const elements = {
    create: () => ({ mount: () => calls.push('mount') }),
    submit: () => Promise.resolve({}),
    update: (options: { amount: number }) => calls.push(`update ${options.amount}`),
  };
  return () => ({
    elements: (options: { amount: number }) => {
      calls.push(`elements ${options.amount}`);
      return elements;
    },
    confirmPayment: (options: { clientSecret: string }) => {
      confirms += 1;
      calls.push(`confirm ${options.clientSecret}`);
      // The first card is declined; the second never answers (the provider goes on to the
      // return address).
      return confirms === 1
        ? Promise.resolve({ error: { type: 'card_error', message: 'Your card was declined.', payment_intent: { id: 'pi_1' } } })
        : new Promise(() => {});
    },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  delete (window as { Stripe?: unknown }).Stripe;
  document.body.innerHTML = '';
});

describe('card-payment island on a donation', () => {
  it('confirms at the intent’s amount and, after a decline, lets the donor try another card on the same intent', async () => {
    const calls: string[] = [];
    (window as { Stripe?: unknown }).Stripe = provider(calls);
    const posts: { url: string; body: string }[] = [];
    const fetchMock = vi.fn((url: string, init: RequestInit) => {
      posts.push({ url, body: String(init.body) });
      const answer = url.startsWith(PROPS.declinedPath)
        ? { next: 'tryAgain', message: DECLINED }
        : { next: 'confirm', clientSecret: 'pi_1_secret_2', returnPath: '/checkout/donate/card-payment/return?contribution=contribution-1', amountMinor: 5000 };
      return Promise.resolve(new Response(JSON.stringify(answer)));
    });
    vi.stubGlobal('fetch', fetchMock);
    const form = donationForm();
    const unmount = mount(form, PROPS);
    const button = form.querySelector('button')!;
    await vi.waitFor(() => expect(button.disabled).toBe(false));

    form.requestSubmit();
    const alert = form.querySelector<HTMLElement>('#checkout-alert')!;
    await vi.waitFor(() => expect(alert.textContent).toBe(DECLINED));
    expect(alert.hidden).toBe(false);
    expect(calls).toEqual(['elements 2500', 'mount', 'update 5000', 'confirm pi_1_secret_2']);
    expect(posts.map((post) => post.url)).toEqual([PROPS.intentPath, PROPS.declinedPath]);
    expect(posts[1]!.body).toBe('contribution=contribution-1&paymentIntent=pi_1');

    // Another card: the same form posts again and confirms the same intent.
    await vi.waitFor(() => expect(button.disabled).toBe(false));
    form.requestSubmit();
    await vi.waitFor(() => expect(calls.filter((call) => call.startsWith('confirm'))).toHaveLength(2));
    expect(calls.slice(-2)).toEqual(['update 5000', 'confirm pi_1_secret_2']);
    expect(posts[2]!.body).toContain('idempotencyKey=0123456789abcdef');
    unmount();
  });
});
