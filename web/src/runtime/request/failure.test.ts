//! Tests of failure classification and the spec's verbatim texts.

import { describe, expect, it } from 'vitest';
import { defaultStatusMessage, failureFromResponse, isRetryable, parseFailureBody } from './failure';

describe('failure classification', () => {
  it.each([
    [401, 'Unauthorized request'],
    [403, 'Unauthorized request'],
    [500, 'Internal server error. Please try again later.'],
    [501, 'Internal server error. Please try again later.'],
    [503, 'This service is temporarily unavailable. Please try again later.'],
  ])('status %i defaults to %j', (status, text) => {
    expect(defaultStatusMessage(status)).toBe(text);
    const failure = failureFromResponse(status, undefined, '/api/x');
    expect(failure.message).toBe(text);
    expect(failure.reason).toBe('status');
    expect(isRetryable(failure)).toBe(false);
  });

  it.each([400, 404, 429, 502, 504])('status %i without an error body is "Unable to connect…" and retryable', (status) => {
    const failure = failureFromResponse(status, undefined, '/api/x');
    expect(failure.message).toBe('Unable to connect\u2026');
    expect(failure.reason).toBe('network');
    expect(isRetryable(failure)).toBe(true);
  });

  it.each([400, 401, 500, 502])('status %i passes a JSON error body to the caller', (status) => {
    const body = { error: 'Coupon expired', extra: 1 };
    const failure = failureFromResponse(status, body, '/api/x');
    expect(failure.reason).toBe('server');
    expect(failure.message).toBe('Coupon expired');
    expect(failure.body).toBe(body);
  });

  it('takes the message field, and passes a billingErrorCode body with the status default', () => {
    expect(failureFromResponse(400, { message: 'Bad quantity' }, '/x').message).toBe('Bad quantity');
    const billing = failureFromResponse(500, { billingErrorCode: 'CARD_DECLINED' }, '/x');
    expect(billing.reason).toBe('server');
    expect(billing.body).toEqual({ billingErrorCode: 'CARD_DECLINED' });
    expect(billing.message).toBe('Internal server error. Please try again later.');
  });

  it('does not pass the body for other statuses', () => {
    const failure = failureFromResponse(403, { error: 'Nope' }, '/x');
    expect(failure.reason).toBe('status');
    expect(failure.body).toBeUndefined();
    expect(failure.message).toBe('Unauthorized request');
  });

  it('reads the crumbFail, loginRequired and authorizationFail flags', () => {
    const failure = failureFromResponse(401, { error: 'x', crumbFail: true, loginRequired: true }, '/x');
    expect(failure.crumbFail).toBe(true);
    expect(failure.loginRequired).toBe(true);
    expect(failure.authorizationFail).toBe(false);
  });

  it('parses only JSON objects as failure bodies', () => {
    expect(parseFailureBody('{"error":"x"}')).toEqual({ error: 'x' });
    expect(parseFailureBody('<html>')).toBeUndefined();
    expect(parseFailureBody('"text"')).toBeUndefined();
    expect(parseFailureBody('')).toBeUndefined();
  });
});
