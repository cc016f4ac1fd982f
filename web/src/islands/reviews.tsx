//! Reviews island (page type 209, reviews request): submits each product's review through the API and shows the spec's texts in place, without reloading the page.

import {
  NO_PRODUCTS_TO_REVIEW,
  SUBMIT_REVIEW_URL,
  THANKS_FOR_FEEDBACK,
  parseReviewsProps,
  reviewFailureText,
  validateReview,
  type ReviewSubmission,
} from '../commerce/review-texts';
import type { IslandUnmount } from '../runtime/island-contract';
import type { RequestClient } from '../runtime/request/client';

interface VitrineGlobal {
  readonly requests?: RequestClient;
}

function readReview(form: HTMLFormElement, token: string): ReviewSubmission {
  const data = new FormData(form);
  const text = (name: string): string => {
    const value = data.get(name);
    return typeof value === 'string' ? value : '';
  };
  return { token, sku: text('sku'), rating: Number.parseInt(text('rating') || '0', 10), title: text('title'), body: text('body') };
}

export function mount(element: HTMLElement, rawProps: unknown): IslandUnmount {
  const { token } = parseReviewsProps(rawProps);
  const requests = (window as unknown as { Vitrine?: VitrineGlobal }).Vitrine?.requests;
  if (!requests) throw new Error('reviews island: the runtime request layer is missing');
  const doc = element.ownerDocument;
  const forms = [...element.querySelectorAll<HTMLFormElement>('form.review-form')];
  const busy = new WeakSet<HTMLFormElement>();

  const showEmptyWhenDone = (): void => {
    if (element.querySelector('form.review-form') !== null) return;
    const empty = doc.createElement('p');
    empty.className = 'reviews-page__empty';
    empty.textContent = NO_PRODUCTS_TO_REVIEW;
    element.querySelector('h1')?.after(empty);
  };

  const onSubmit = async (form: HTMLFormElement): Promise<void> => {
    const message = form.querySelector<HTMLElement>('.review-form__message');
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!message || !button || busy.has(form)) return;
    const review = readReview(form, token);
    const invalid = validateReview(review);
    if (invalid !== undefined) {
      message.textContent = invalid;
      form.querySelector<HTMLInputElement>('input[name="rating"]')?.focus();
      return;
    }
    busy.add(form);
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    message.textContent = '';
    const outcome = await requests.post(SUBMIT_REVIEW_URL, { ...review }, { format: 'json', onFailure: () => {} });
    busy.delete(form);
    button.disabled = false;
    button.removeAttribute('aria-busy');
    if (outcome.ok) {
      const thanks = doc.createElement('p');
      thanks.className = 'reviews-page__notice';
      thanks.setAttribute('role', 'status');
      thanks.tabIndex = -1;
      thanks.textContent = THANKS_FOR_FEEDBACK;
      form.replaceWith(thanks);
      thanks.focus();
      showEmptyWhenDone();
    } else {
      message.textContent = reviewFailureText(outcome.failure.status, outcome.failure.body);
    }
  };

  const listeners = forms.map((form) => {
    const listener = (event: SubmitEvent): void => {
      event.preventDefault();
      void onSubmit(form);
    };
    form.addEventListener('submit', listener);
    return () => form.removeEventListener('submit', listener);
  });
  return () => listeners.forEach((remove) => remove());
}
