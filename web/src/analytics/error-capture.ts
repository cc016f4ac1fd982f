//! Wires the error reporter to the page: uncaught errors and unhandled rejections become error
//! report entries (000 s3) sent as JSON with the crumb header.

import { obtainCrumb, readCrumb } from '../runtime/request/crumb';
import type { PageContext } from '../runtime/page-context';
import { ERRORS_PATH, createErrorReporter, type ErrorData, type ErrorReporter } from './error-reporter';

/** The header the server accepts the crumb in. */
const CRUMB_HEADER = 'X-CSRF-Token';

export function startErrorCapture(win: Window & typeof globalThis, context: PageContext): ErrorReporter {
  const website = (context['website'] as Record<string, unknown> | undefined) ?? {};
  const reporter = createErrorReporter({
    now: () => Date.now(),
    setTimer: (run, ms) => win.setTimeout(run, ms),
    clearTimer: (timer) => win.clearTimeout(timer as number),
    send: (entries) => {
      const post = (crumb: string | undefined) =>
        // Reporting must never raise an error of its own.
        void win
          .fetch(ERRORS_PATH, {
            method: 'POST',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/json', ...(crumb === undefined ? {} : { [CRUMB_HEADER]: crumb }) },
            body: JSON.stringify(entries),
            keepalive: true,
          })
          .catch(() => undefined);
      const crumb = readCrumb(win.document);
      if (crumb !== undefined) post(crumb);
      else void obtainCrumb(win.document, (url, init) => win.fetch(url, init)).then(post);
    },
  });
  const base = (): Pick<ErrorData, 'url' | 'userAgent' | 'app'> & Partial<ErrorData> => ({
    ...(typeof website['id'] === 'string' ? { websiteId: website['id'] } : {}),
    ...(typeof context['templateId'] === 'string' ? { templateId: context['templateId'] } : {}),
    url: win.location.href,
    userAgent: win.navigator.userAgent,
    app: 'vitrine-web',
  });
  win.addEventListener('error', (event) => {
    const error = event.error as { stack?: unknown } | undefined;
    reporter.report({
      ...base(),
      message: event.message,
      ...(typeof error?.stack === 'string' ? { stack: error.stack } : {}),
      file: event.filename,
      line: event.lineno,
      column: event.colno,
    });
  });
  win.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as { message?: unknown; stack?: unknown } | undefined;
    reporter.report({
      ...base(),
      message: typeof reason?.message === 'string' ? reason.message : String(event.reason),
      ...(typeof reason?.stack === 'string' ? { stack: reason.stack } : {}),
    });
  });
  return reporter;
}
