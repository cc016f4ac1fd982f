//! The request layer (spec 000 s7-s8): GET, POST, PUT and DELETE with crumb, retries, queueing and failure handling.

import { LOGIN_REQUIRED_EVENT, REQUEST_RETRY_DELAY_MS } from '../constants';
import type { SystemError } from '../system-error-overlay';
import { obtainCrumb, readCrumb, resetCrumb, withCrumb } from './crumb';
import { appendQuery, encodeBody, type BodyFormat, type RequestData } from './encoding';
import {
  abortedFailure,
  failureFromResponse,
  isRetryable,
  networkFailure,
  parseFailure,
  parseFailureBody,
  type RequestFailure,
} from './failure';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions<T> {
  readonly url: string;
  /** Defaults to GET. */
  readonly method?: HttpMethod;
  /** Query parameters for GET; the body for the other methods. */
  readonly data?: RequestData;
  /** Body encoding for POST, PUT and DELETE; defaults to `form` (application/x-www-form-urlencoded). */
  readonly format?: BodyFormat;
  /** Waits until every earlier queued request has finished, so queued requests run one at a time. */
  readonly queue?: boolean;
  /** Extra attempts after a connection failure, each REQUEST_RETRY_DELAY_MS after the last. */
  readonly retries?: number;
  readonly signal?: AbortSignal;
  readonly onSuccess?: (data: T) => void;
  /** Receives the failure. Without it, the system error overlay reports the failure instead. */
  readonly onFailure?: (failure: RequestFailure) => void;
}

export type RequestOutcome<T> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly failure: RequestFailure };

/** Detail of the login-required window event. */
export interface LoginRequiredDetail {
  readonly url: string;
  readonly status: number;
}

export interface RequestClientOptions {
  readonly fetch: typeof fetch;
  /** Source of the crumb cookie. */
  readonly document: Document;
  /** Receives the login-required event (normally `window`). */
  readonly events: EventTarget;
  /** Base for relative URLs (normally `location.href`). */
  readonly baseUrl: string;
  readonly showSystemError: (error: SystemError) => void;
  /** Waits between retries; injectable for tests. */
  readonly delay?: (ms: number) => Promise<void>;
}

type Shortcut = <T = unknown>(
  url: string,
  data?: RequestData,
  options?: Omit<RequestOptions<T>, 'url' | 'data' | 'method'>,
) => Promise<RequestOutcome<T>>;

export interface RequestClient {
  /** Runs a request; the promise always resolves, with the data or with the failure. */
  request<T = unknown>(options: RequestOptions<T>): Promise<RequestOutcome<T>>;
  get: Shortcut;
  post: Shortcut;
  put: Shortcut;
  delete: Shortcut;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function createRequestClient(client: RequestClientOptions): RequestClient {
  const delay = client.delay ?? wait;
  // The tail of the queue: queued requests chain onto it, unqueued ones ignore it.
  let queueTail: Promise<unknown> = Promise.resolve();

  /** One attempt: a fetch and the reading of its answer. */
  const attempt = async <T>(options: RequestOptions<T>): Promise<RequestOutcome<T>> => {
    const method = options.method ?? 'GET';
    const withData = method === 'GET' ? appendQuery(options.url, options.data) : options.url;
    // A state-changing call needs a crumb; a page that has none asks for one first.
    const crumb =
      method === 'GET'
        ? readCrumb(client.document)
        : await obtainCrumb(client.document, (url, init) => client.fetch(url, init));
    const target = withCrumb(withData, crumb, client.baseUrl);
    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method, credentials: 'same-origin', headers };
    if (method !== 'GET' && options.data !== undefined) {
      const encoded = encodeBody(options.data, options.format ?? 'form');
      headers['Content-Type'] = encoded.contentType;
      init.body = encoded.body;
    }
    if (options.signal !== undefined) init.signal = options.signal;

    let response: Response;
    let text: string;
    try {
      response = await client.fetch(target, init);
      text = await response.text();
    } catch (error) {
      const aborted = options.signal?.aborted === true || isAbortError(error);
      return { ok: false, failure: aborted ? abortedFailure(options.url) : networkFailure(options.url) };
    }

    if (!response.ok) {
      const failure = failureFromResponse(response.status, parseFailureBody(text), options.url);
      // The crumb failure's response normally set a fresh crumb cookie already; only a crumb the
      // server did not replace is reset, so the retry never sends the rejected one again.
      if (failure.crumbFail && crumb !== undefined && readCrumb(client.document) === crumb) {
        resetCrumb(client.document);
      }
      return { ok: false, failure };
    }
    if (response.status === 204) return { ok: true, data: null as T };
    try {
      return { ok: true, data: JSON.parse(text) as T };
    } catch (error) {
      return { ok: false, failure: parseFailure(options.url, response.status, error) };
    }
  };

  /** Attempts until success, a definite failure, or the retries run out; retries a crumb failure once, with the new crumb. */
  const run = async <T>(options: RequestOptions<T>): Promise<RequestOutcome<T>> => {
    let retriesLeft = Math.max(0, Math.floor(options.retries ?? 0));
    let crumbRetried = false;
    for (;;) {
      const outcome = await attempt(options);
      if (outcome.ok) return outcome;
      const { failure } = outcome;
      if (failure.crumbFail && !crumbRetried && !failure.loginRequired && !failure.authorizationFail) {
        crumbRetried = true;
        continue;
      }
      if (retriesLeft > 0 && isRetryable(failure) && options.signal?.aborted !== true) {
        retriesLeft -= 1;
        await delay(REQUEST_RETRY_DELAY_MS);
        continue;
      }
      return outcome;
    }
  };

  /** Tells whoever must know about a final failure, in the spec's order of precedence. */
  const report = (failure: RequestFailure, onFailure: ((failure: RequestFailure) => void) | undefined): void => {
    if (failure.reason === 'aborted') return;
    if (failure.loginRequired) {
      const detail: LoginRequiredDetail = { url: failure.url, status: failure.status };
      client.events.dispatchEvent(new CustomEvent(LOGIN_REQUIRED_EVENT, { detail }));
      return;
    }
    if (failure.authorizationFail) {
      client.showSystemError({ kind: 'cleaned' });
      return;
    }
    if (onFailure !== undefined) {
      onFailure(failure);
      return;
    }
    client.showSystemError(
      failure.reason === 'network'
        ? { kind: 'network', message: failure.message }
        : { kind: 'raw', message: failure.message, url: failure.url },
    );
  };

  const request = async <T>(options: RequestOptions<T>): Promise<RequestOutcome<T>> => {
    let outcome: Promise<RequestOutcome<T>>;
    if (options.queue === true) {
      outcome = queueTail.then(() => run(options));
      queueTail = outcome.catch(() => undefined);
    } else {
      outcome = run(options);
    }
    const settled = await outcome;
    if (settled.ok) options.onSuccess?.(settled.data);
    else report(settled.failure, options.onFailure);
    return settled;
  };

  const shortcut =
    (method: HttpMethod): Shortcut =>
    (url, data, options) =>
      request({ ...options, url, method, ...(data === undefined ? {} : { data }) });

  return {
    request,
    get: shortcut('GET'),
    post: shortcut('POST'),
    put: shortcut('PUT'),
    delete: shortcut('DELETE'),
  };
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
