//! The logger (000 s7, s9): batches of {pageUrl, type, data} sent to `POST /api/events/Trace`,
//! flushed every 30 s and, by beacon, when the page is left. Plain TypeScript, no React.

export const TRACE_PATH = '/api/events/Trace';
export const LOG_FLUSH_MS = 30_000;
/** Entries held between flushes; more are dropped, so a chatty page never grows memory without bound. */
export const MAX_LOG_ENTRIES = 100;

export interface LogBatch {
  readonly pageUrl: string;
  readonly type: string;
  readonly data: unknown;
}

export interface LoggerHost {
  readonly pageUrl: () => string;
  readonly setInterval: (run: () => void, ms: number) => unknown;
  /** Sends form fields by fetch (the timer's flush). */
  readonly post: (body: URLSearchParams) => void;
  /** Sends form fields by beacon (the unload flush); false when the browser refused it. */
  readonly beacon: (body: URLSearchParams) => boolean;
  /** Calls back when the page is being left or hidden. */
  readonly onLeave: (run: () => void) => void;
}

export interface Logger {
  /** Queues one entry; false when dropped because the queue is full. */
  log(type: string, data: unknown): boolean;
  /** Sends what is queued now. */
  flush(viaBeacon: boolean): void;
  readonly queued: () => number;
}

/** The Trace call's body: the form field `data`, a JSON array of log batches. */
export function traceBody(entries: readonly LogBatch[]): URLSearchParams {
  return new URLSearchParams({ data: JSON.stringify(entries) });
}

export function createLogger(host: LoggerHost): Logger {
  let queue: LogBatch[] = [];
  const flush = (viaBeacon: boolean): void => {
    if (queue.length === 0) return;
    const body = traceBody(queue);
    queue = [];
    // A refused beacon falls back to a keepalive fetch, which also outlives the page.
    if (!viaBeacon || !host.beacon(body)) host.post(body);
  };
  host.setInterval(() => flush(false), LOG_FLUSH_MS);
  host.onLeave(() => flush(true));
  return {
    log(type, data) {
      if (queue.length >= MAX_LOG_ENTRIES) return false;
      queue.push({ pageUrl: host.pageUrl(), type, data });
      return true;
    },
    flush,
    queued: () => queue.length,
  };
}
