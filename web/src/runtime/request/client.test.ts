//! Tests of the request layer against a mocked fetch: crumb, bodies, retries, queueing and every failure path.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_REQUIRED_EVENT } from '../constants';
import type { SystemError } from '../system-error-overlay';
import { createRequestClient, type RequestClientOptions } from './client';
import { resetCrumb } from './crumb';

type FetchMock = ReturnType<typeof vi.fn<typeof fetch>>;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const text = (body: string, status: number) => new Response(body, { status });

function setup(overrides: Partial<RequestClientOptions> = {}) {
  const fetchMock: FetchMock = vi.fn<typeof fetch>();
  const shown: SystemError[] = [];
  const events = new EventTarget();
  const delays: number[] = [];
  const client = createRequestClient({
    fetch: fetchMock,
    document,
    events,
    baseUrl: 'https://shop.example/page',
    showSystemError: (error) => shown.push(error),
    delay: async (ms) => {
      delays.push(ms);
    },
    ...overrides,
  });
  return { client, fetchMock, shown, events, delays };
}

const settleMicrotasks = () => new Promise((resolve) => setTimeout(resolve, 0));
const calledUrl = (mock: FetchMock, call = 0) => String(mock.mock.calls[call]?.[0]);
const calledInit = (mock: FetchMock, call = 0) => mock.mock.calls[call]?.[1] ?? {};

beforeEach(() => {
  document.cookie = 'crumb=c1; path=/';
});
afterEach(() => resetCrumb(document));

describe('request layer: calls', () => {
  it('GETs with the crumb and data in the query, same-origin credentials, and returns the JSON', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(json({ key: 'k1' }));
    const onSuccess = vi.fn();
    const outcome = await client.get('/api/track/Track', { lang: 'en-US' }, { onSuccess });
    expect(calledUrl(fetchMock)).toBe('/api/track/Track?lang=en-US&crumb=c1');
    expect(calledInit(fetchMock)).toMatchObject({ method: 'GET', credentials: 'same-origin' });
    expect(calledInit(fetchMock).body).toBeUndefined();
    expect(outcome).toEqual({ ok: true, data: { key: 'k1' } });
    expect(onSuccess).toHaveBeenCalledWith({ key: 'k1' });
  });

  it('asks for a crumb before the first state-changing call of a page without one, once', async () => {
    resetCrumb(document);
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async (url) => {
      if (String(url) !== '/api/crumb') return json({});
      document.cookie = 'crumb=fresh; path=/';
      return new Response(null, { status: 204 });
    });
    await Promise.all([client.post('/api/form/FormSubmissionKey'), client.post('/api/census/RecordHit')]);
    await client.post('/api/form/FormSubmissionKey');
    const urls = fetchMock.mock.calls.map(([url]) => String(url));
    expect(urls[0]).toBe('/api/crumb');
    expect(urls.slice(1).sort()).toEqual([
      '/api/census/RecordHit?crumb=fresh',
      '/api/form/FormSubmissionKey?crumb=fresh',
      '/api/form/FormSubmissionKey?crumb=fresh',
    ]);
    expect(calledInit(fetchMock, 0)).toMatchObject({ credentials: 'same-origin', cache: 'no-store' });
  });

  it('reads without asking for a crumb', async () => {
    resetCrumb(document);
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(json({}));
    await client.get('/api/track/Track');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/track/Track']);
  });

  it('still makes the call when no crumb can be had, without a crumb parameter', async () => {
    resetCrumb(document);
    const { client, fetchMock } = setup();
    fetchMock.mockImplementationOnce(async () => Promise.reject(new TypeError('offline'))).mockResolvedValue(json({}));
    await client.post('/api/form/FormSubmissionKey');
    expect(calledUrl(fetchMock, 1)).toBe('/api/form/FormSubmissionKey');
  });

  it('POSTs form-encoded data by default and JSON on request', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async () => json({}));
    await client.post('/api/census/RecordHit', { event: 'view', data: { a: 1 } });
    await client.post('/api/census/button-click', { buttonText: 'Buy' }, { format: 'json' });
    const form = calledInit(fetchMock, 0);
    expect((form.headers as Record<string, string>)['Content-Type']).toBe(
      'application/x-www-form-urlencoded; charset=utf-8',
    );
    expect(form.body).toBe('event=view&data=%7B%22a%22%3A1%7D');
    const body = calledInit(fetchMock, 1);
    expect((body.headers as Record<string, string>)['Content-Type']).toBe('application/json; charset=utf-8');
    expect(body.body).toBe('{"buttonText":"Buy"}');
  });

  it('supports PUT and DELETE', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async () => json({}));
    await client.put('/api/x', { a: 1 });
    await client.delete('/api/x');
    expect(calledInit(fetchMock, 0).method).toBe('PUT');
    expect(calledInit(fetchMock, 1).method).toBe('DELETE');
  });

  it('answers null for 204 No Content', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    expect(await client.delete('/api/x')).toEqual({ ok: true, data: null });
  });
});

describe('request layer: failure texts', () => {
  it('reports an unparseable success body with the exact internal error text', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(text('<html>oops</html>', 200));
    const onFailure = vi.fn();
    await client.get('/api/cart', undefined, { onFailure });
    let parseMessage = '';
    try {
      JSON.parse('<html>oops</html>');
    } catch (error) {
      parseMessage = (error as Error).message;
    }
    expect(onFailure.mock.calls[0]?.[0].message).toBe(
      `Internal Error: Unable to parse server response from (/api/cart) as JSON: ${parseMessage}`,
    );
  });

  it.each([
    [401, 'Unauthorized request'],
    [403, 'Unauthorized request'],
    [500, 'Internal server error. Please try again later.'],
    [501, 'Internal server error. Please try again later.'],
    [503, 'This service is temporarily unavailable. Please try again later.'],
    [404, 'Unable to connect\u2026'],
    [502, 'Unable to connect\u2026'],
  ])('status %i without an error body gives %j', async (status, message) => {
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(text('', status));
    const onFailure = vi.fn();
    await client.get('/api/x', undefined, { onFailure });
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0]?.[0]).toMatchObject({ status, message, url: '/api/x' });
  });

  it.each([400, 401, 500, 502])('status %i passes the JSON error body to the caller', async (status) => {
    const { client, fetchMock } = setup();
    fetchMock.mockResolvedValue(json({ error: 'Out of stock', billingErrorCode: 'B1' }, status));
    const onFailure = vi.fn();
    await client.post('/api/commerce/cart', {}, { onFailure });
    expect(onFailure.mock.calls[0]?.[0]).toMatchObject({
      reason: 'server',
      message: 'Out of stock',
      body: { error: 'Out of stock', billingErrorCode: 'B1' },
    });
  });

  it('gives "Unable to connect…" when fetch itself fails', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const onFailure = vi.fn();
    await client.get('/api/x', undefined, { onFailure });
    expect(onFailure.mock.calls[0]?.[0]).toMatchObject({ status: 0, message: 'Unable to connect\u2026' });
  });
});

describe('request layer: retries', () => {
  it('retries a connection failure every 200 ms while the retry count lasts', async () => {
    const { client, fetchMock, delays } = setup();
    fetchMock
      .mockResolvedValueOnce(text('', 404))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(json({ done: true }));
    const outcome = await client.get('/api/x', undefined, { retries: 3 });
    expect(outcome).toEqual({ ok: true, data: { done: true } });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(delays).toEqual([200, 200]);
  });

  it('gives up when the retries run out', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async () => text('', 404));
    const onFailure = vi.fn();
    await client.get('/api/x', undefined, { retries: 2, onFailure });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('does not retry without a retry count, nor a definite server answer', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async () => text('', 404));
    await client.get('/api/x', undefined, { onFailure: () => {} });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    fetchMock.mockClear();
    fetchMock.mockImplementation(async () => text('', 500));
    await client.get('/api/x', undefined, { retries: 5, onFailure: () => {} });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('waits 200 ms of real time between attempts by default', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn<typeof fetch>().mockResolvedValueOnce(text('', 404)).mockResolvedValueOnce(json({}));
      const client = createRequestClient({
        fetch: fetchMock,
        document,
        events: new EventTarget(),
        baseUrl: 'https://shop.example/',
        showSystemError: () => {},
      });
      const outcome = client.get('/api/x', undefined, { retries: 1 });
      await vi.advanceTimersByTimeAsync(199);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect((await outcome).ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retries a crumb failure once, with the crumb the failure response set', async () => {
    const { client, fetchMock } = setup();
    fetchMock
      .mockImplementationOnce(async () => {
        document.cookie = 'crumb=c2; path=/';
        return json({ error: 'Invalid crumb', crumbFail: true }, 401);
      })
      .mockResolvedValueOnce(json({ saved: true }));
    const outcome = await client.post('/api/form/SaveFormSubmission', { key: 'k' });
    expect(outcome).toEqual({ ok: true, data: { saved: true } });
    expect(calledUrl(fetchMock, 0)).toBe('/api/form/SaveFormSubmission?crumb=c1');
    expect(calledUrl(fetchMock, 1)).toBe('/api/form/SaveFormSubmission?crumb=c2');
  });

  it('resets the crumb cookie before the retry and retries only once', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockImplementation(async () => json({ error: 'Invalid crumb', crumbFail: true }, 401));
    const onFailure = vi.fn();
    await client.post('/api/x', {}, { onFailure });
    // The retry has no crumb left, asks for one (refused here too) and goes out without.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/x?crumb=c1', '/api/crumb', '/api/x']);
    expect(onFailure).toHaveBeenCalledTimes(1);
  });
});

describe('request layer: who hears about a failure', () => {
  it('fires the login-required event on window instead of the failure callback', async () => {
    const { client, fetchMock, events, shown } = setup();
    fetchMock.mockResolvedValue(json({ error: 'Sign in', loginRequired: true }, 401));
    const heard = vi.fn();
    events.addEventListener(LOGIN_REQUIRED_EVENT, heard);
    const onFailure = vi.fn();
    await client.get('/api/member', undefined, { onFailure });
    expect(heard).toHaveBeenCalledTimes(1);
    expect((heard.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({ url: '/api/member', status: 401 });
    expect(onFailure).not.toHaveBeenCalled();
    expect(shown).toEqual([]);
  });

  it('shows the system error overlay for an authorisation failure', async () => {
    const { client, fetchMock, shown } = setup();
    fetchMock.mockResolvedValue(json({ error: 'Forbidden', authorizationFail: true }, 401));
    const onFailure = vi.fn();
    await client.get('/api/x', undefined, { onFailure });
    expect(shown).toEqual([{ kind: 'cleaned' }]);
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('shows the overlay when no failure callback is given: raw with URL, or the network message', async () => {
    const { client, fetchMock, shown } = setup();
    fetchMock.mockResolvedValueOnce(json({ error: 'Form closed' }, 400));
    await client.post('/api/form/SaveFormSubmission');
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await client.get('/api/x');
    expect(shown).toEqual([
      { kind: 'raw', message: 'Form closed', url: '/api/form/SaveFormSubmission' },
      { kind: 'network', message: 'Unable to connect\u2026' },
    ]);
  });

  it('tells nobody about an aborted request', async () => {
    const { client, fetchMock, shown } = setup();
    const controller = new AbortController();
    controller.abort();
    fetchMock.mockRejectedValue(new DOMException('aborted', 'AbortError'));
    const outcome = await client.get('/api/x', undefined, { signal: controller.signal, retries: 3 });
    expect(outcome.ok).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(shown).toEqual([]);
  });
});

describe('request layer: queue', () => {
  it('runs queued requests one after another, and unqueued ones at once', async () => {
    const { client, fetchMock } = setup();
    const releases: Array<() => void> = [];
    fetchMock.mockImplementation(
      () => new Promise<Response>((resolve) => releases.push(() => resolve(json({})))),
    );
    const first = client.post('/api/first', {}, { queue: true });
    const second = client.post('/api/second', {}, { queue: true });
    const free = client.get('/api/free');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(fetchMock.mock.calls.map(([url]) => String(url)).sort()).toEqual(['/api/first?crumb=c1', '/api/free?crumb=c1']);
    const firstRelease = releases[fetchMock.mock.calls.findIndex(([url]) => String(url).startsWith('/api/first'))]!;
    const freeRelease = releases[fetchMock.mock.calls.findIndex(([url]) => String(url).startsWith('/api/free'))]!;
    await settleMicrotasks();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    firstRelease();
    await first;
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(calledUrl(fetchMock, 2)).toBe('/api/second?crumb=c1');
    freeRelease();
    releases[2]!();
    await Promise.all([second, free]);
  });

  it('keeps the queue moving after a failed request', async () => {
    const { client, fetchMock } = setup();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(json({ ok: 1 }));
    const first = client.post('/api/a', {}, { queue: true, onFailure: () => {} });
    const second = client.post('/api/b', {}, { queue: true });
    expect((await first).ok).toBe(false);
    expect(await second).toEqual({ ok: true, data: { ok: 1 } });
  });
});
