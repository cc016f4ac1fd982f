//! The TypeScript rules and messages agree with the Rust core on every generated vector.

import { describe, expect, it } from 'vitest';
import * as messages from './messages';
import { counterText, exceedsMaxLength, isValidEmail, isValidUsZip, parseMaxLength } from './rules';

interface Vectors {
  emails: { input: string; valid: boolean }[];
  zips: { input: string; valid: boolean }[];
  counters: { text: string; dataMaxLength: string; counter: string | null; over: boolean; exceeds: boolean }[];
  messages: Record<string, string>;
}

const loaded = import.meta.glob<Vectors>('../generated/form-rule-vectors.json', { eager: true, import: 'default' });
const vectors = Object.values(loaded)[0];

describe('rule vectors from the Rust core', () => {
  it('are present', () => {
    expect(vectors).toBeDefined();
    expect(vectors!.emails.length).toBeGreaterThan(10);
  });

  it.each(vectors?.emails ?? [])('email $input is valid: $valid', ({ input, valid }) => {
    expect(isValidEmail(input)).toBe(valid);
  });

  it.each(vectors?.zips ?? [])('zip $input is valid: $valid', ({ input, valid }) => {
    expect(isValidUsZip(input)).toBe(valid);
  });

  it.each(vectors?.counters ?? [])('counter of $text with max $dataMaxLength', ({ text, dataMaxLength, counter, over, exceeds }) => {
    const shown = counterText(text, dataMaxLength);
    expect(shown?.label ?? null).toBe(counter);
    expect(shown?.over ?? false).toBe(over);
    expect(exceedsMaxLength(text, parseMaxLength(dataMaxLength))).toBe(exceeds);
  });

  it('carry the same verbatim messages', () => {
    const m = vectors!.messages;
    expect(m['emailInvalid']).toBe(messages.EMAIL_INVALID);
    expect(m['characterLimit']).toBe(messages.CHARACTER_LIMIT);
    expect(m['captchaUnsolved']).toBe(messages.CAPTCHA_UNSOLVED);
    expect(m['fieldsInvalid']).toBe(messages.FIELDS_INVALID);
    expect(m['zipInvalid']).toBe(messages.ZIP_INVALID);
    expect(m['requiredExample']).toBe(messages.requiredMessage('Email'));
    expect(m['unauthorized']).toBe(messages.UNAUTHORIZED);
    expect(m['notConfigured']).toBe(messages.NOT_CONFIGURED);
    expect(m['rateLimited']).toBe(messages.RATE_LIMITED);
    expect(m['serverError']).toBe(messages.SERVER_ERROR);
    expect(m['unknownError']).toBe(messages.UNKNOWN_ERROR);
    expect(m['keyFailure']).toBe(messages.KEY_FAILURE);
    expect(m['parseFailure']).toBe(messages.PARSE_FAILURE);
    expect(m['saveFailure']).toBe(messages.SAVE_FAILURE);
    expect(m['errorsAbove']).toBe(messages.ERRORS_ABOVE);
    expect(m['errorsBelow']).toBe(messages.ERRORS_BELOW);
    expect(m['submitting']).toBe(messages.SUBMITTING);
  });
});
