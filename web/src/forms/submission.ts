//! The submission flow of spec 000 s4 and s7 as plain TypeScript: the payload, the submit state machine, and the status-to-message rules of 000 s8.

import {
  KEY_FAILURE,
  NOT_CONFIGURED,
  RATE_LIMITED,
  SAVE_FAILURE,
  SERVER_ERROR,
  UNAUTHORIZED,
  UNKNOWN_ERROR,
} from './messages';
import type { FieldValue } from './model';

export const KEY_URL = '/api/form/FormSubmissionKey';
export const SAVE_URL = '/api/form/SaveFormSubmission';

export interface PayloadInput {
  readonly key: string;
  readonly formId: string;
  readonly collectionId: string;
  readonly objectName: string;
  readonly isOverlayForm: boolean;
  readonly submitButtonText: string;
  readonly values: Readonly<Record<string, FieldValue>>;
  readonly captchaKey?: string | undefined;
  readonly honeypot: string;
}

/** The SaveFormSubmission payload (000 s7): `form` travels as a JSON string. */
export function buildPayload(input: PayloadInput): Record<string, string> {
  const payload: Record<string, string> = {
    key: input.key,
    formId: input.formId,
    collectionId: input.collectionId,
    objectName: input.objectName,
    isOverlayForm: String(input.isOverlayForm),
    submitButtonText: input.submitButtonText,
    form: JSON.stringify(input.values),
    honeypot: input.honeypot,
  };
  if (input.captchaKey) payload['captchaKey'] = input.captchaKey;
  return payload;
}

/** Submit states of 000 s4: idle, locked while the calls run, then success or failure (failure unlocks). */
export type SubmitState =
  | { readonly phase: 'idle' }
  | { readonly phase: 'locked' }
  | { readonly phase: 'success' }
  | { readonly phase: 'failure'; readonly message: string; readonly fieldErrors: Readonly<Record<string, string>> };

export type SubmitEvent =
  | { readonly type: 'submit' }
  | { readonly type: 'succeeded' }
  | { readonly type: 'failed'; readonly message: string; readonly fieldErrors?: Readonly<Record<string, string>> };

export const IDLE: SubmitState = { phase: 'idle' };

/** The state machine. A submit while locked (or after success) is ignored. */
export function submitReducer(state: SubmitState, event: SubmitEvent): SubmitState {
  switch (event.type) {
    case 'submit':
      return state.phase === 'idle' || state.phase === 'failure' ? { phase: 'locked' } : state;
    case 'succeeded':
      return state.phase === 'locked' ? { phase: 'success' } : state;
    case 'failed':
      return state.phase === 'locked' || state.phase === 'idle'
        ? { phase: 'failure', message: event.message, fieldErrors: event.fieldErrors ?? {} }
        : state;
  }
}

export const isLocked = (state: SubmitState): boolean => state.phase === 'locked';

/** What a failed save shows (000 s8), from the status and the body the request layer passed on. */
export function saveFailureMessage(status: number, body: Readonly<Record<string, unknown>> | undefined): {
  message: string;
  fieldErrors: Record<string, string>;
} {
  const errors = body?.['errors'];
  if (status === 400 && typeof errors === 'object' && errors !== null) {
    const fieldErrors: Record<string, string> = {};
    for (const [id, message] of Object.entries(errors)) if (typeof message === 'string') fieldErrors[id] = message;
    const error = body?.['error'];
    return { message: typeof error === 'string' ? error : UNKNOWN_ERROR, fieldErrors };
  }
  switch (status) {
    case 0:
      return { message: SAVE_FAILURE, fieldErrors: {} };
    case 401:
      return { message: UNAUTHORIZED, fieldErrors: {} };
    case 404:
      return { message: NOT_CONFIGURED, fieldErrors: {} };
    case 429:
      return { message: RATE_LIMITED, fieldErrors: {} };
    case 500:
      return { message: SERVER_ERROR, fieldErrors: {} };
  }
  const error = body?.['error'];
  return { message: typeof error === 'string' && error !== '' ? error : UNKNOWN_ERROR, fieldErrors: {} };
}

/** What the calls need from the request layer: a POST that resolves to the data or the failure. */
export type Post = (
  url: string,
  data?: Record<string, string>,
) => Promise<
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly failure: { readonly status: number; readonly body: Readonly<Record<string, unknown>> | undefined } }
>;

export type SubmitResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly message: string; readonly fieldErrors: Record<string, string> };

/** Fetches a key, then saves; every failure becomes the spec's message. */
export async function submitForm(post: Post, payload: (key: string) => Record<string, string>): Promise<SubmitResult> {
  const keyAnswer = await post(KEY_URL);
  const key = keyAnswer.ok ? (keyAnswer.data as { key?: unknown } | null)?.key : undefined;
  if (typeof key !== 'string' || key === '') return { ok: false, message: KEY_FAILURE, fieldErrors: {} };
  const saved = await post(SAVE_URL, payload(key));
  if (saved.ok) return { ok: true };
  return { ok: false, ...saveFailureMessage(saved.failure.status, saved.failure.body) };
}
