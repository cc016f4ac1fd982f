//! The card-payment island of the checkout and donation pages: mounts the payment provider's own card fields (Stripe's
//! Payment Element, from the provider's script the page loads) in the checkout form, posts the
//! form without a card to the server, which holds the stock and answers the intent's client
//! secret, and confirms the payment with the provider, who takes the shopper to their bank when
//! the card asks for it and back to the shop's return address. A card the provider declines at
//! once is told to the server, which asks the provider and says why; the shopper (or donor)
//! then types another card and confirms the same intent again (the same form answers it).
//! Before confirming, the fields are given the intent's amount, which may differ from the one
//! the page loaded with. Plain
//! DOM, so its chunk loads no React. Without the provider's script the fields cannot show: the
//! page says so, and the button stays off so nothing is posted.

import {
  type CardPaymentProps,
  declinedBody,
  elementsOptions,
  fieldsUpdate,
  formBody,
  parseCardPaymentProps,
  parseCardPaymentStep,
  paymentTexts,
  parseDeclinedStep,
  returnUrl,
} from '../commerce/card-payment';
import type { IslandUnmount } from '../runtime/island-contract';

interface ProviderError {
  readonly type?: string;
  readonly message?: string;
  readonly payment_intent?: { readonly id?: string };
}

interface ProviderElements {
  create(type: 'payment'): { mount(target: HTMLElement): void };
  submit(): Promise<{ error?: ProviderError }>;
  update(options: { amount: number }): void;
}

interface ProviderClient {
  elements(options: Record<string, unknown>): ProviderElements;
  confirmPayment(options: {
    elements: ProviderElements;
    clientSecret: string;
    confirmParams: { return_url: string };
  }): Promise<{ error?: ProviderError }>;
}

type ProviderScript = (publishableKey: string) => ProviderClient;

/** How long the provider's script may take to load before the page says it is unavailable. */
const SCRIPT_WAIT_MS = 15_000;

function loadedScript(): ProviderScript | undefined {
  const candidate = (window as unknown as { Stripe?: unknown }).Stripe;
  return typeof candidate === 'function' ? (candidate as ProviderScript) : undefined;
}

/** The provider's script once it has loaded, or undefined when it failed or took too long. */
function providerScript(): Promise<ProviderScript | undefined> {
  const ready = loadedScript();
  if (ready !== undefined) return Promise.resolve(ready);
  const tag = document.getElementById('stripe-js');
  if (tag === null) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve(loadedScript());
    };
    const timer = setTimeout(done, SCRIPT_WAIT_MS);
    tag.addEventListener('load', done, { once: true });
    tag.addEventListener('error', done, { once: true });
  });
}

function startPayments(form: HTMLFormElement, props: CardPaymentProps, client: ProviderClient): () => void {
  const fields = form.querySelector<HTMLElement>('#checkout-card-fields');
  const note = form.querySelector<HTMLElement>('#checkout-card-fields-unavailable');
  const alert = form.querySelector<HTMLElement>('#checkout-alert');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (fields === null || alert === null || button === null) throw new Error('card-payment island: the form lacks its parts');
  const texts = paymentTexts(props.purpose);
  const elements = client.elements(elementsOptions(props));
  elements.create('payment').mount(fields);
  if (note !== null) note.hidden = true;

  const say = (text: string) => {
    alert.textContent = text;
    alert.hidden = false;
  };
  const clearMessages = () => {
    alert.hidden = true;
    alert.textContent = '';
    for (const error of form.querySelectorAll('[data-card-payment-error]')) error.remove();
    for (const field of form.querySelectorAll('[aria-invalid="true"]')) {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  };
  const showFieldErrors = (errors: Readonly<Record<string, string>>) => {
    for (const [name, message] of Object.entries(errors)) {
      const input = form.querySelector<HTMLElement>(`#checkout-${CSS.escape(name)}`);
      if (input === null) continue;
      const error = document.createElement('p');
      error.className = 'field__error';
      error.id = `checkout-${name}-error`;
      error.dataset['cardPaymentError'] = '';
      error.textContent = message;
      input.after(error);
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', error.id);
    }
  };

  let busy = false;
  const pay = async () => {
    clearMessages();
    const checked = await elements.submit();
    if (checked.error) {
      say(checked.error.message ?? texts.unreachable);
      return;
    }
    let answer: unknown;
    try {
      const response = await fetch(props.intentPath, {
        method: 'POST',
        body: formBody(new FormData(form)),
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      });
      answer = await response.json();
    } catch {
      answer = undefined;
    }
    const step = parseCardPaymentStep(answer, texts.unreachable);
    if (step.next === 'refused') {
      say(step.alert);
      showFieldErrors(step.fieldErrors);
      return;
    }
    if (step.next === 'order') {
      location.assign(step.orderPath);
      return;
    }
    const back = returnUrl(step.returnPath, location.href);
    // The intent carries the amount the server took from the form, which the fields must
    // agree with before the provider confirms it.
    elements.update(fieldsUpdate(step));
    const confirmed = await client.confirmPayment({ elements, clientSecret: step.clientSecret, confirmParams: { return_url: back } });
    const intent = confirmed.error?.payment_intent?.id;
    if (intent !== undefined) {
      // The provider refused the card: the server asks it, counts the decline and says
      // whether another card may be tried on the same intent.
      await afterDecline(back, intent);
      return;
    }
    if (confirmed.error) say(confirmed.error.message ?? texts.unreachable);
  };
  const afterDecline = async (back: string, intent: string) => {
    const declinedPath = props.declinedPath;
    if (declinedPath === undefined) {
      // No other card on this intent: the return address says why it failed.
      const failed = new URL(back);
      failed.searchParams.append('payment_intent', intent);
      location.assign(failed.toString());
      return;
    }
    let answer: unknown;
    try {
      const response = await fetch(declinedPath, {
        method: 'POST',
        body: declinedBody(back, intent),
        headers: { Accept: 'application/json' },
        credentials: 'same-origin',
      });
      answer = await response.json();
    } catch {
      answer = undefined;
    }
    const step = parseDeclinedStep(answer);
    if (step.next === 'order') {
      location.assign(step.orderPath);
      return;
    }
    say(step.next === 'tryAgain' ? step.message : step.alert);
    fields.querySelector<HTMLInputElement>('input')?.focus();
  };
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    button.disabled = true;
    void pay().finally(() => {
      busy = false;
      button.disabled = false;
    });
  };
  form.addEventListener('submit', onSubmit);
  return () => form.removeEventListener('submit', onSubmit);
}

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  if (!(element instanceof HTMLFormElement)) throw new Error('card-payment island: mounts on the checkout form');
  const props = parseCardPaymentProps(rawProps);
  const note = element.querySelector<HTMLElement>('#checkout-card-fields-unavailable');
  const button = element.querySelector<HTMLButtonElement>('button[type="submit"]');
  let stop: (() => void) | undefined;
  let unmounted = false;
  // Until the fields show, the form cannot pay: the button waits, so nothing is posted.
  if (button !== null) button.disabled = true;
  void providerScript().then((script) => {
    if (unmounted) return;
    if (script === undefined) {
      if (note !== null) {
        note.textContent = paymentTexts(props.purpose).unavailable;
        note.setAttribute('role', 'alert');
      }
      return;
    }
    stop = startPayments(element, props, script(props.publishableKey));
    if (button !== null) button.disabled = false;
  });
  return () => {
    unmounted = true;
    stop?.();
    if (button !== null) button.disabled = false;
  };
}
