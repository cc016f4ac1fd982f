//! The submit state machine, the payload, the status-to-message table and the two calls, without a browser.

import { describe, expect, it } from 'vitest';
import { KEY_FAILURE, NOT_CONFIGURED, RATE_LIMITED, SAVE_FAILURE, SERVER_ERROR, UNAUTHORIZED, UNKNOWN_ERROR } from './messages';
import { IDLE, KEY_URL, SAVE_URL, buildPayload, saveFailureMessage, submitForm, submitReducer, type Post } from './submission';

describe('the submit state machine', () => {
  it('goes idle, locked, success and ignores a second submit while locked', () => {
    const locked = submitReducer(IDLE, { type: 'submit' });
    expect(locked.phase).toBe('locked');
    expect(submitReducer(locked, { type: 'submit' })).toBe(locked);
    const done = submitReducer(locked, { type: 'succeeded' });
    expect(done.phase).toBe('success');
    expect(submitReducer(done, { type: 'submit' })).toBe(done);
  });

  it('unlocks on failure, keeping the messages, and may submit again', () => {
    const failed = submitReducer(submitReducer(IDLE, { type: 'submit' }), {
      type: 'failed',
      message: 'x',
      fieldErrors: { email: 'bad' },
    });
    expect(failed).toEqual({ phase: 'failure', message: 'x', fieldErrors: { email: 'bad' } });
    expect(submitReducer(failed, { type: 'submit' }).phase).toBe('locked');
  });
});

describe('the payload', () => {
  it('carries the spec fields with form as a JSON string', () => {
    const payload = buildPayload({
      key: 'k',
      formId: 'contact',
      collectionId: 'c1',
      objectName: '',
      isOverlayForm: false,
      submitButtonText: 'Send',
      values: { name: ['Ada', 'Lovelace'], phone: ['', '555', '123', '4567'] },
      honeypot: '',
    });
    expect(payload).toEqual({
      key: 'k',
      formId: 'contact',
      collectionId: 'c1',
      objectName: '',
      isOverlayForm: 'false',
      submitButtonText: 'Send',
      form: '{"name":["Ada","Lovelace"],"phone":["","555","123","4567"]}',
      honeypot: '',
    });
    expect(buildPayload({ ...payloadBase, captchaKey: 'tok' })['captchaKey']).toBe('tok');
  });
});

const payloadBase = {
  key: 'k',
  formId: 'f',
  collectionId: '',
  objectName: '',
  isOverlayForm: true,
  submitButtonText: '',
  values: {},
  honeypot: '',
};

describe('failure messages by status (000 s8)', () => {
  it.each([
    [401, undefined, UNAUTHORIZED],
    [404, undefined, NOT_CONFIGURED],
    [429, undefined, RATE_LIMITED],
    [500, { error: 'Unable to send form. Please try again later.' }, SERVER_ERROR],
    [0, undefined, SAVE_FAILURE],
    [418, { error: 'Teapot says no.' }, 'Teapot says no.'],
    [418, undefined, UNKNOWN_ERROR],
    [400, { error: SAVE_FAILURE }, SAVE_FAILURE],
  ])('status %s', (status, body, expected) => {
    expect(saveFailureMessage(status, body)).toEqual({ message: expected, fieldErrors: {} });
  });

  it('puts a 400 with data.errors at the fields', () => {
    const { fieldErrors } = saveFailureMessage(400, { error: 'x', errors: { email: 'Email is not valid.' } });
    expect(fieldErrors).toEqual({ email: 'Email is not valid.' });
  });
});

describe('the calls', () => {
  function fakePost(answers: Record<string, Awaited<ReturnType<Post>>>): { post: Post; calls: [string, unknown][] } {
    const calls: [string, unknown][] = [];
    const post: Post = async (url, data) => {
      calls.push([url, data]);
      return answers[url]!;
    };
    return { post, calls };
  }

  it('fetch a key first, then save with it', async () => {
    const { post, calls } = fakePost({
      [KEY_URL]: { ok: true, data: { key: 'abc' } },
      [SAVE_URL]: { ok: true, data: { success: true } },
    });
    expect(await submitForm(post, (key) => ({ key }))).toEqual({ ok: true });
    expect(calls).toEqual([
      [KEY_URL, undefined],
      [SAVE_URL, { key: 'abc' }],
    ]);
  });

  it('report a key failure with its message and do not save', async () => {
    const { post, calls } = fakePost({ [KEY_URL]: { ok: false, failure: { status: 500, body: undefined } } });
    expect(await submitForm(post, (key) => ({ key }))).toEqual({ ok: false, message: KEY_FAILURE, fieldErrors: {} });
    expect(calls).toHaveLength(1);
  });

  it('map a failed save to its message', async () => {
    const { post } = fakePost({
      [KEY_URL]: { ok: true, data: { key: 'abc' } },
      [SAVE_URL]: { ok: false, failure: { status: 429, body: undefined } },
    });
    expect(await submitForm(post, (key) => ({ key }))).toEqual({ ok: false, message: RATE_LIMITED, fieldErrors: {} });
  });
});
