//! Success URLs (000 s4): after a successful submission the island goes to the form's success URL instead of showing the message; a failure never navigates.

import { afterEach, describe, expect, it } from 'vitest';
import { controlForm } from './controller';
import { parseFormProps, type FieldProps } from './model';
import { KEY_URL, type Post } from './submission';

const fields: FieldProps[] = [{ id: 'email', type: 'email', title: 'Email', required: true }];

function setup(): { block: HTMLElement; form: HTMLFormElement; success: HTMLElement } {
  const block = document.createElement('div');
  block.innerHTML = `<form class="form">
    <div class="field"><label for="e">Email</label><input id="e" name="email" type="email" required></div>
    <div class="form__actions"><button type="submit">Send</button></div>
    <div class="form__success" hidden><p>Thanks!</p></div>
  </form>`;
  document.body.append(block);
  return { block, form: block.querySelector('form')!, success: block.querySelector<HTMLElement>('.form__success')! };
}

afterEach(() => {
  document.body.innerHTML = '';
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function submitWith(save: Awaited<ReturnType<Post>>): Promise<{ visited: string[]; success: HTMLElement }> {
  const { block, form, success } = setup();
  const visited: string[] = [];
  const post: Post = async (url) => (url === KEY_URL ? { ok: true, data: { key: 'k' } } : save);
  controlForm({
    block, form, formId: 'booking', fields, newsletter: false, post, success, collectionId: '', search: '', onState: () => {},
    successUrl: '/thanks?from=booking',
    navigate: (url) => visited.push(url),
  });
  form.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'ada@example.com';
  form.requestSubmit();
  await settle();
  await settle();
  return { visited, success };
}

describe('success URLs', () => {
  it('go to the success URL after success instead of showing the message', async () => {
    const { visited, success } = await submitWith({ ok: true, data: { success: true } });
    expect(visited).toEqual(['/thanks?from=booking']);
    expect(success.hidden).toBe(true);
  });

  it('stay on the page when the submission fails', async () => {
    const { visited } = await submitWith({ ok: false, failure: { status: 500, body: { error: 'x' } } });
    expect(visited).toEqual([]);
  });

  it('come from the props when the server sends one', () => {
    const base = { formId: 'f', submitLabel: 'Send', fields: [] };
    expect(parseFormProps({ ...base, successUrl: '/thanks' }).successUrl).toBe('/thanks');
    expect(parseFormProps(base).successUrl).toBeUndefined();
    expect(parseFormProps({ ...base, successUrl: 42 }).successUrl).toBeUndefined();
  });
});
