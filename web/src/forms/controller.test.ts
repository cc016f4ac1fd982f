//! The submit flow over server-shaped markup in jsdom: locking, the success view, field errors with ARIA, the counter, and a second submit ignored.

import { afterEach, describe, expect, it } from 'vitest';
import { controlForm, statusTexts } from './controller';
import { FORM_SUBMITTED_EVENT } from './events';
import { EMAIL_INVALID, ERRORS_ABOVE, ERRORS_BELOW, NOT_CONFIGURED, SUBMITTING } from './messages';
import type { FieldProps } from './model';
import { KEY_URL, SAVE_URL, type Post, type SubmitState } from './submission';

const fields: FieldProps[] = [
  { id: 'email', type: 'email', title: 'Email', required: true },
  { id: 'message', type: 'textarea', title: 'Message', required: false, maxLength: 5 },
];

function setup(): { block: HTMLElement; form: HTMLFormElement; success: HTMLElement } {
  const block = document.createElement('div');
  block.id = 'block-contact';
  block.innerHTML = `<form class="form">
    <div class="field"><label for="block-contact-field-0">Email</label><input id="block-contact-field-0" name="email" type="email" required></div>
    <div class="field"><label for="block-contact-field-1">Message</label><textarea id="block-contact-field-1" name="message" data-max-length="5"></textarea></div>
    <div class="form__actions"><button type="submit">Send</button></div>
    <div class="form__success" hidden><p>Thanks!</p></div>
  </form>`;
  document.body.append(block);
  return { block, form: block.querySelector('form')!, success: block.querySelector<HTMLElement>('.form__success')! };
}

afterEach(() => {
  document.body.innerHTML = '';
});

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the form controller', () => {
  it('locks with Submitting…, ignores a second submit, then shows the success view', async () => {
    const { block, form, success } = setup();
    const save = deferred<Awaited<ReturnType<Post>>>();
    const calls: string[] = [];
    const post: Post = async (url) => {
      calls.push(url);
      return url === KEY_URL ? { ok: true, data: { key: 'k' } } : save.promise;
    };
    const states: SubmitState[] = [];
    let announced = 0;
    document.body.addEventListener(FORM_SUBMITTED_EVENT, () => (announced += 1));
    controlForm({ block, form, formId: 'contact', fields, newsletter: false, post, success, collectionId: '', search: '', onState: (s) => states.push(s) });
    form.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'ada@example.com';
    form.requestSubmit();
    await settle();
    expect(form.querySelector('button')!.textContent).toBe(SUBMITTING);
    form.requestSubmit();
    await settle();
    save.resolve({ ok: true, data: { success: true } });
    await settle();
    expect(calls).toEqual([KEY_URL, SAVE_URL]);
    expect(success.hidden).toBe(false);
    expect(form.querySelector<HTMLElement>('.form__actions')!.hidden).toBe(true);
    expect(document.activeElement).toBe(success);
    expect(states.map((s) => s.phase)).toEqual(['locked', 'success']);
    // The success bubbles up, so a popup overlay around the form can record the signup.
    expect(announced).toBe(1);
  });

  it('shows a server 400 at its field, marked for assistive technology, and unlocks', async () => {
    const { block, form, success } = setup();
    const post: Post = async (url) =>
      url === KEY_URL ? { ok: true, data: { key: 'k' } } : { ok: false, failure: { status: 400, body: { error: 'x', errors: { email: EMAIL_INVALID } } } };
    let last: SubmitState | undefined;
    controlForm({ block, form, formId: 'contact', fields, newsletter: false, post, success, collectionId: '', search: '', onState: (s) => (last = s) });
    const email = form.querySelector<HTMLInputElement>('input[name="email"]')!;
    email.value = 'ada@example.com';
    form.requestSubmit();
    await settle();
    await settle();
    const error = block.querySelector('.field__error')!;
    expect(error.textContent).toBe(EMAIL_INVALID);
    expect(error.nextElementSibling?.tagName).toBe('LABEL');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(error.id);
    expect(document.activeElement).toBe(email);
    expect(form.querySelector('button')!.textContent).toBe('Send');
    expect(statusTexts(last!, false)).toEqual({ above: ERRORS_ABOVE, below: ERRORS_BELOW });
  });

  it('validates on the client before spending a key', async () => {
    const { block, form, success } = setup();
    const calls: string[] = [];
    const post: Post = async (url) => {
      calls.push(url);
      return { ok: true, data: {} };
    };
    controlForm({ block, form, formId: 'contact', fields, newsletter: false, post, success, collectionId: '', search: '', onState: () => {} });
    form.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'nope';
    form.requestSubmit();
    await settle();
    expect(calls).toEqual([]);
    expect(block.querySelector('.field__error')!.textContent).toBe(EMAIL_INVALID);
  });

  it('counts characters against data-max-length', () => {
    const { block, form, success } = setup();
    controlForm({ block, form, formId: 'contact', fields, newsletter: false, post: async () => ({ ok: true, data: {} }), success, collectionId: '', search: '', onState: () => {} });
    const area = form.querySelector('textarea')!;
    const counter = block.querySelector('.field__counter')!;
    expect(counter.textContent).toBe('0 / 5');
    area.value = 'abcdef';
    area.dispatchEvent(new Event('input'));
    expect(counter.textContent).toBe('6 / 5');
    expect(counter.classList.contains('field__counter--error')).toBe(true);
  });

  it('gives a newsletter only the message, without the scroll hints', () => {
    expect(statusTexts({ phase: 'failure', message: NOT_CONFIGURED, fieldErrors: {} }, true)).toEqual({ above: NOT_CONFIGURED });
  });
});
