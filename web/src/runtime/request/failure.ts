//! Turns a failed response into the request layer's failure value, with the spec's texts (000 s8).

import { REQUEST_MESSAGES } from '../constants';

/**
 * Why a request failed:
 * - `server`: the server answered 400, 401, 500 or 502 with a JSON body naming the error; the body is passed on.
 * - `status`: any other failing status, described by the default text of that status.
 * - `network`: no usable answer (fetch failed, or a status without a specific text): 'Unable to connect…'.
 * - `parse`: a successful answer whose body is not JSON.
 * - `aborted`: the caller aborted the request; nobody is told.
 */
export type FailureReason = 'server' | 'status' | 'network' | 'parse' | 'aborted';

export interface RequestFailure {
  readonly reason: FailureReason;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** The URL the caller asked for, without the crumb parameter. */
  readonly url: string;
  /** Text to show: the server's own error or message, or the spec's default for the status. */
  readonly message: string;
  /** The server's JSON body when it is passed to the caller (reason `server`). */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  /** The server says the crumb was wrong; the layer retries once with a fresh crumb. */
  readonly crumbFail: boolean;
  /** The server says the visitor must sign in; the layer fires the login-required event. */
  readonly loginRequired: boolean;
  /** The server refuses the account; the layer shows the system error overlay. */
  readonly authorizationFail: boolean;
}

/** Statuses whose JSON error body goes to the caller (spec 000 s8). */
const PASSED_STATUSES: ReadonlySet<number> = new Set([400, 401, 500, 502]);
/** Keys that make a failure body worth passing on. */
const ERROR_KEYS = ['error', 'message', 'billingErrorCode'] as const;

/** The default text for a failing status; undefined for statuses that count as a connection problem. */
export function defaultStatusMessage(status: number): string | undefined {
  switch (status) {
    case 401:
    case 403:
      return REQUEST_MESSAGES.unauthorized;
    case 500:
    case 501:
      return REQUEST_MESSAGES.internalServerError;
    case 503:
      return REQUEST_MESSAGES.serviceUnavailable;
    default:
      return undefined;
  }
}

/** Parses a failure body; anything but a JSON object counts as no body. */
export function parseFailureBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the failure for an answer with a failing status. */
export function failureFromResponse(
  status: number,
  body: Record<string, unknown> | undefined,
  url: string,
): RequestFailure {
  const flags = {
    crumbFail: body?.['crumbFail'] === true,
    loginRequired: body?.['loginRequired'] === true,
    authorizationFail: body?.['authorizationFail'] === true,
  };
  if (body !== undefined && PASSED_STATUSES.has(status) && ERROR_KEYS.some((key) => key in body)) {
    const own = [body['error'], body['message']].find(
      (value): value is string => typeof value === 'string' && value !== '',
    );
    return {
      reason: 'server',
      status,
      url,
      message: own ?? defaultStatusMessage(status) ?? REQUEST_MESSAGES.unableToConnect,
      body,
      ...flags,
    };
  }
  const message = defaultStatusMessage(status);
  return {
    reason: message === undefined ? 'network' : 'status',
    status,
    url,
    message: message ?? REQUEST_MESSAGES.unableToConnect,
    body: undefined,
    ...flags,
  };
}

/** The failure when no answer arrived at all. */
export function networkFailure(url: string): RequestFailure {
  return noFlags({ reason: 'network', status: 0, url, message: REQUEST_MESSAGES.unableToConnect });
}

/** The failure when a successful answer is not JSON; the text is the spec's, verbatim. */
export function parseFailure(url: string, status: number, error: unknown): RequestFailure {
  const detail = error instanceof Error ? error.message : String(error);
  return noFlags({
    reason: 'parse',
    status,
    url,
    message: `Internal Error: Unable to parse server response from (${url}) as JSON: ${detail}`,
  });
}

export function abortedFailure(url: string): RequestFailure {
  return noFlags({ reason: 'aborted', status: 0, url, message: 'Request aborted' });
}

/** Only connection problems are retried; a definite answer from the server would only repeat. */
export function isRetryable(failure: RequestFailure): boolean {
  return failure.reason === 'network';
}

function noFlags(
  fields: Pick<RequestFailure, 'reason' | 'status' | 'url' | 'message'>,
): RequestFailure {
  return { ...fields, body: undefined, crumbFail: false, loginRequired: false, authorizationFail: false };
}
