//! The performance collector (001 s7, s8, s9): a pageLoadId from `GET /api/1/performance/settings`
//! (30 s time-out), then records, Core Web Vitals among them, sent to
//! `POST /api/1/performance/records` as a JSON array (beacon, else text/plain XHR), flushed 30 s
//! after load or when the page is hidden, collecting for at most 60 s. 'Unable to resolve
//! pageLoadId' and 'Metric settings request timeout' go to error reporting. No React.

export const SETTINGS_PATH = '/api/1/performance/settings';
export const RECORDS_PATH = '/api/1/performance/records';
export const SETTINGS_TIMEOUT_MS = 30_000;
export const FLUSH_AFTER_LOAD_MS = 30_000;
export const METRICS_WAIT_MS = 60_000;
export const UNRESOLVED_PAGE_LOAD_ID = 'Unable to resolve pageLoadId';
export const SETTINGS_TIMEOUT = 'Metric settings request timeout';

/** One measurement as web-vitals (or the page) reports it. */
export interface Metric {
  readonly name: string;
  readonly value: number;
  readonly rating?: string;
  readonly id?: string;
}

/** One record as the server stores it. */
export interface PerformanceRecord {
  readonly pageLoadId: string;
  readonly name: string;
  readonly value: number;
  readonly rating?: string;
  readonly metricId?: string;
  readonly pagePath: string;
}

export interface PerformanceHost {
  readonly pagePath: string;
  /** The settings call's JSON body; rejects on a failed call. */
  readonly fetchSettings: () => Promise<unknown>;
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (timer: unknown) => void;
  /** Sends the JSON text of a records array. */
  readonly send: (json: string) => void;
  readonly reportError: (message: string) => void;
  /** Calls back each time the page becomes hidden. */
  readonly onHidden: (run: () => void) => void;
  /** Whether the page is hidden now. */
  readonly hidden: () => boolean;
}

export interface PerformanceCollector {
  /** Adds a metric; ignored once collection has ended. */
  add(metric: Metric): void;
  /** Sends what is collected, once the pageLoadId is known. */
  flush(): void;
  readonly pending: () => number;
}

function pageLoadIdOf(body: unknown): string | undefined {
  const id = (body as { pageLoadId?: unknown } | null)?.pageLoadId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Starts collecting at page load: asks for the pageLoadId and arms the flush timers. */
export function startPerformanceCollector(host: PerformanceHost): PerformanceCollector {
  let pageLoadId: string | undefined;
  let ended = false;
  let metrics: Metric[] = [];
  const flush = (): void => {
    if (pageLoadId === undefined || metrics.length === 0) return;
    const id = pageLoadId;
    const records: PerformanceRecord[] = metrics.map((metric) => ({
      pageLoadId: id,
      name: metric.name,
      value: metric.value,
      ...(metric.rating === undefined ? {} : { rating: metric.rating }),
      ...(metric.id === undefined ? {} : { metricId: metric.id }),
      pagePath: host.pagePath,
    }));
    metrics = [];
    host.send(JSON.stringify(records));
  };
  const end = (): void => {
    ended = true;
    metrics = [];
  };

  let settled = false;
  const timeout = host.setTimer(() => {
    if (settled) return;
    settled = true;
    host.reportError(SETTINGS_TIMEOUT);
    end();
  }, SETTINGS_TIMEOUT_MS);
  host
    .fetchSettings()
    .then((body) => {
      if (settled) return;
      settled = true;
      host.clearTimer(timeout);
      pageLoadId = pageLoadIdOf(body);
      if (pageLoadId === undefined) {
        host.reportError(UNRESOLVED_PAGE_LOAD_ID);
        end();
      }
    })
    .catch(() => {
      if (settled) return;
      settled = true;
      host.clearTimer(timeout);
      host.reportError(UNRESOLVED_PAGE_LOAD_ID);
      end();
    });

  host.setTimer(flush, FLUSH_AFTER_LOAD_MS);
  host.setTimer(() => {
    flush();
    end();
  }, METRICS_WAIT_MS);
  host.onHidden(flush);
  return {
    add(metric) {
      if (ended) return;
      metrics.push(metric);
      // web-vitals reports its final values on the same visibility change that flushed: a
      // metric arriving while the page is hidden is sent at once, as the page may not return.
      if (host.hidden()) flush();
    },
    flush,
    pending: () => metrics.length,
  };
}
