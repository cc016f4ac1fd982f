//! Tests of the guard that stops a second copy of the common script.

import { describe, expect, it, vi } from 'vitest';
import { RUNTIME_GLOBAL } from './constants';
import { claimRuntimeGlobal, SECOND_RUN_WARNING } from './single-run-guard';

describe('single-run guard', () => {
  it('publishes the runtime on the first run', () => {
    const host: Record<string, unknown> = {};
    const api = { name: 'first' };
    expect(claimRuntimeGlobal(host, api)).toBe(true);
    expect(host[RUNTIME_GLOBAL]).toBe(api);
  });

  it('warns and refuses on a second run, keeping the first runtime', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const host: Record<string, unknown> = {};
    const first = { name: 'first' };
    claimRuntimeGlobal(host, first);
    expect(claimRuntimeGlobal(host, { name: 'second' })).toBe(false);
    expect(warn).toHaveBeenCalledWith(SECOND_RUN_WARNING);
    expect(host[RUNTIME_GLOBAL]).toBe(first);
  });
});
