//! Tests of chunk loading: states, once-only loading, timeout, and the two kinds of load error.

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ChunkLoadError,
  classifyImportFailure,
  createChunkLoader,
  CssChunkLoadError,
  type ChunkSource,
} from './chunk-loading';
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const source = <M>(importer: () => Promise<M>, request = './islands/accordion.tsx'): ChunkSource<M> => ({
  importer,
  request,
});

afterEach(() => vi.useRealTimers());

describe('chunk loader', () => {
  it('goes from pending to loaded, importing once however often it is asked', async () => {
    const module = { mount: () => {} };
    const pending = deferred<typeof module>();
    const importer = vi.fn(() => pending.promise);
    const loader = createChunkLoader(new Map([['accordion', source(importer)]]));
    expect(loader.state('accordion')).toBeUndefined();
    const first = loader.load('accordion');
    const second = loader.load('accordion');
    expect(loader.state('accordion')).toBe('pending');
    pending.resolve(module);
    expect(await first).toBe(module);
    expect(await second).toBe(module);
    expect(loader.state('accordion')).toBe('loaded');
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('fails with a ChunkLoadError carrying the chunk, type and the URL the browser reported', async () => {
    const url = 'https://shop.example/assets/accordion-Ab12.js';
    const loader = createChunkLoader(
      new Map([['accordion', source(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${url}`)))]]),
    );
    const error = await loader.load('accordion').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ name: 'ChunkLoadError', chunk: 'accordion', type: 'error', request: url });
    expect(loader.state('accordion')).toBe('failed');
  });

  it('reports the module id as the request when the browser names no URL', () => {
    const error = classifyImportFailure('accordion', './islands/accordion.tsx', new TypeError('Importing a module script failed.'));
    expect(error).toMatchObject({ type: 'error', request: './islands/accordion.tsx' });
  });

  it('fails with a timeout ChunkLoadError after 120 s', async () => {
    vi.useFakeTimers();
    const loader = createChunkLoader(new Map([['accordion', source(() => new Promise<never>(() => {}))]]));
    const outcome = loader.load('accordion').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(loader.state('accordion')).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ name: 'ChunkLoadError', type: 'timeout', request: './islands/accordion.tsx' });
    expect(loader.state('accordion')).toBe('failed');
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('gives a CSS chunk load failed error when a stylesheet of the chunk fails', async () => {
    const css = 'https://shop.example/assets/accordion-Zz9.css';
    const loader = createChunkLoader(
      new Map([['accordion', source(() => Promise.reject(new Error(`Unable to preload CSS for ${css}`)))]]),
    );
    const error = await loader.load('accordion').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CssChunkLoadError);
    expect(error).toMatchObject({ code: 'CSS_CHUNK_LOAD_FAILED', chunk: 'accordion', request: css });
    expect((error as Error).message).toContain('CSS chunk load failed');
  });

  it('fails with a missing ChunkLoadError for an island type without a chunk', async () => {
    const loader = createChunkLoader(new Map<string, ChunkSource<unknown>>());
    expect(await loader.load('gallery').catch((e: unknown) => e)).toMatchObject({ type: 'missing', chunk: 'gallery' });
  });
});
