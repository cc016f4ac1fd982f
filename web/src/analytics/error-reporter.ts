//! The client error reporter (000 s9): at most 20 entries sent per page, 10 queued, stacks cut
//! at 5000 characters, sends debounced 1 s, to `POST /api/events/RecordJavascriptErrors` as a
//! JSON array of {event, data, timestamp}. The same limits as `vitrine_core::analytics`.

export const MAX_SENDS_PER_PAGE = 20;
export const MAX_QUEUED = 10;
export const MAX_STACK_CHARS = 5000;
export const SEND_DEBOUNCE_MS = 1000;
export const ERRORS_PATH = '/api/events/RecordJavascriptErrors';

export interface ErrorData {
  websiteId?: string;
  templateId?: string;
  url: string;
  userAgent: string;
  app: string;
  message: string;
  stack?: string;
  file?: string;
  line?: number;
  column?: number;
  custom?: unknown;
}

export interface ErrorEntry {
  readonly event: string;
  readonly data: ErrorData;
  readonly timestamp: number;
}

export interface ReporterHost {
  readonly now: () => number;
  readonly setTimer: (run: () => void, ms: number) => unknown;
  readonly clearTimer: (timer: unknown) => void;
  readonly send: (entries: readonly ErrorEntry[]) => void;
}

export function truncateStack(stack: string): string {
  const chars = Array.from(stack);
  return chars.length > MAX_STACK_CHARS ? chars.slice(0, MAX_STACK_CHARS).join('') : stack;
}

export interface ErrorReporter {
  /** Queues an error; false when dropped by a limit. */
  report(data: ErrorData): boolean;
  readonly sent: () => number;
  readonly queued: () => number;
}

export function createErrorReporter(host: ReporterHost): ErrorReporter {
  let queue: ErrorEntry[] = [];
  let sent = 0;
  let timer: unknown;
  const flush = (): void => {
    timer = undefined;
    if (queue.length === 0) return;
    sent += queue.length;
    const batch = queue;
    queue = [];
    host.send(batch);
  };
  return {
    report(data) {
      if (queue.length >= MAX_QUEUED || sent + queue.length >= MAX_SENDS_PER_PAGE) return false;
      const stack = data.stack === undefined ? {} : { stack: truncateStack(data.stack) };
      queue.push({ event: 'JavascriptError', data: { ...data, ...stack }, timestamp: host.now() });
      if (timer !== undefined) host.clearTimer(timer);
      timer = host.setTimer(flush, SEND_DEBOUNCE_MS);
      return true;
    },
    sent: () => sent,
    queued: () => queue.length,
  };
}
