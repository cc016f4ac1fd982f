//! Chunk loading (spec 001 s4, s8, s9): each chunk is pending, then loaded or failed, with a 120 s timeout.

import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

export type ChunkState = 'pending' | 'loaded' | 'failed';

/** How a script chunk failed: the request errored, took longer than the timeout, or no such chunk exists. */
export type ChunkFailureType = 'error' | 'timeout' | 'missing';

/** A script chunk did not load. Carries the chunk's name, how it failed and the URL requested. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  readonly chunk: string;
  readonly type: ChunkFailureType;
  readonly request: string;

  constructor(chunk: string, type: ChunkFailureType, request: string, cause?: unknown) {
    super(`Loading chunk ${chunk} failed. (${type}: ${request})`, { cause });
    this.chunk = chunk;
    this.type = type;
    this.request = request;
  }
}

/** A stylesheet a chunk depends on did not load. */
export class CssChunkLoadError extends Error {
  override readonly name = 'CssChunkLoadError';
  readonly code = 'CSS_CHUNK_LOAD_FAILED';
  readonly chunk: string;
  readonly request: string;

  constructor(chunk: string, request: string, cause?: unknown) {
    super(`CSS chunk load failed: ${chunk} (${request})`, { cause });
    this.chunk = chunk;
    this.request = request;
  }
}

/** Imports one chunk; in the build this is a dynamic `import()` made by `import.meta.glob`. */
export type ChunkImporter<M> = () => Promise<M>;

export interface ChunkSource<M> {
  readonly importer: ChunkImporter<M>;
  /** What to report as the request when the browser's error does not name the URL (the module id). */
  readonly request: string;
}

export interface ChunkLoader<M> {
  /** Loads a chunk once; later calls share the first call's result, success or failure. */
  load(name: string): Promise<M>;
  /** The chunk's state, or undefined when it was never requested. */
  state(name: string): ChunkState | undefined;
}

export interface ChunkLoaderOptions {
  readonly timeoutMs?: number;
}

/** The message Vite's preload helper throws when a chunk's stylesheet fails. */
const CSS_PRELOAD_FAILURE = /^Unable to preload CSS for (\S+)/;
/** Browsers name the module URL in the message of a failed dynamic import (Chromium and Firefox do). */
const URL_IN_MESSAGE = /(https?:\/\/[^\s'"()]+|\/[^\s'"()]+\.m?js)/;

export function createChunkLoader<M>(
  sources: ReadonlyMap<string, ChunkSource<M>>,
  options: ChunkLoaderOptions = {},
): ChunkLoader<M> {
  const timeoutMs = options.timeoutMs ?? CHUNK_LOAD_TIMEOUT_MS;
  const requests = new Map<string, { state: ChunkState; promise: Promise<M> }>();

  const start = (name: string): Promise<M> => {
    const source = sources.get(name);
    if (source === undefined) return Promise.reject(new ChunkLoadError(name, 'missing', name));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ChunkLoadError(name, 'timeout', source.request)),
        timeoutMs,
      );
    });
    const imported = source.importer().catch((error: unknown) => {
      throw classifyImportFailure(name, source.request, error);
    });
    return Promise.race([imported, timeout]).finally(() => clearTimeout(timer));
  };

  return {
    load(name) {
      const existing = requests.get(name);
      if (existing !== undefined) return existing.promise;
      const entry: { state: ChunkState; promise: Promise<M> } = {
        state: 'pending',
        promise: start(name),
      };
      requests.set(name, entry);
      entry.promise.then(
        () => (entry.state = 'loaded'),
        () => (entry.state = 'failed'),
      );
      return entry.promise;
    },
    state(name) {
      return requests.get(name)?.state;
    },
  };
}

/** Names the failure: a stylesheet dependency, or the script itself with the URL the browser reported. */
export function classifyImportFailure(chunk: string, fallbackRequest: string, error: unknown): Error {
  if (error instanceof ChunkLoadError || error instanceof CssChunkLoadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const css = CSS_PRELOAD_FAILURE.exec(message);
  if (css?.[1] !== undefined) return new CssChunkLoadError(chunk, css[1], error);
  const url = URL_IN_MESSAGE.exec(message)?.[1];
  return new ChunkLoadError(chunk, 'error', url ?? fallbackRequest, error);
}
