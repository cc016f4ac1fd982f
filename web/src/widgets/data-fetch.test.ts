//! Tests of the data fetch helper's states and its handling of a failure.

import { describe, expect, it, vi } from 'vitest';

import { fetchData } from './data-fetch';

describe('data fetch helper', () => {
  it('is pending, then success with the data', async () => {
    let answer: (value: string[]) => void = () => undefined;
    const fetch = fetchData(() => new Promise<string[]>((resolve) => (answer = resolve)));
    expect([fetch.state, fetch.data, fetch.error]).toEqual(['pending', undefined, false]);
    answer(['bowl']);
    await expect(fetch.done).resolves.toEqual(['bowl']);
    expect([fetch.state, fetch.data, fetch.error]).toEqual(['success', ['bowl'], false]);
  });

  it('on a failure sets the error flag, logs, and calls the handler, without rejecting', async () => {
    const log = vi.fn();
    const onError = vi.fn();
    const cause = new Error('offline');
    const fetch = fetchData(() => Promise.reject(cause), { log, onError });
    await expect(fetch.done).resolves.toBeUndefined();
    expect([fetch.state, fetch.error]).toEqual(['failed', true]);
    expect(log).toHaveBeenCalledWith('Vitrine: fetching data failed.', cause);
    expect(onError).toHaveBeenCalledWith(cause);
  });

  it('logs to the console when no log is given', async () => {
    const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
    await fetchData(() => Promise.reject(new Error('x'))).done;
    expect(console).toHaveBeenCalledTimes(1);
  });
});
