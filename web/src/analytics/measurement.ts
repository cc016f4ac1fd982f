//! Wires the logger and the performance collector to the browser: fetch, beacon and XHR with the
//! crumb, page-leave and visibility events, web-vitals for LCP, INP and CLS, and the error
//! reporter for the collector's failures.

import { onCLS, onINP, onLCP } from 'web-vitals';
import { readCrumb, withCrumb } from '../runtime/request/crumb';
import type { ErrorReporter } from './error-reporter';
import { TRACE_PATH, createLogger, type Logger } from './logger';
import { RECORDS_PATH, SETTINGS_PATH, startPerformanceCollector, type PerformanceCollector } from './performance';

type BrowserWindow = Window & typeof globalThis;

function crumbed(win: BrowserWindow, path: string): string {
  return withCrumb(path, readCrumb(win.document), win.location.href);
}

function onHidden(win: BrowserWindow, run: () => void): void {
  win.document.addEventListener('visibilitychange', () => {
    if (win.document.visibilityState === 'hidden') run();
  });
}

export function startLogger(win: BrowserWindow): Logger {
  return createLogger({
    pageUrl: () => win.location.href,
    setInterval: (run, ms) => win.setInterval(run, ms),
    // Logging never raises an error of its own.
    post: (body) => void win.fetch(crumbed(win, TRACE_PATH), { method: 'POST', credentials: 'same-origin', body, keepalive: true }).catch(() => undefined),
    beacon: (body) => typeof win.navigator.sendBeacon === 'function' && win.navigator.sendBeacon(crumbed(win, TRACE_PATH), body),
    onLeave: (run) => {
      win.addEventListener('pagehide', run);
      onHidden(win, run);
    },
  });
}

/** Sends records by beacon as text/plain, or by XHR when the browser refuses the beacon. */
function sendRecords(win: BrowserWindow, json: string): void {
  const url = crumbed(win, RECORDS_PATH);
  const beacon = typeof win.navigator.sendBeacon === 'function' && win.navigator.sendBeacon(url, new Blob([json], { type: 'text/plain' }));
  if (beacon) return;
  const xhr = new win.XMLHttpRequest();
  xhr.open('POST', url);
  xhr.setRequestHeader('content-type', 'text/plain');
  xhr.send(json);
}

async function fetchSettings(win: BrowserWindow, signal: AbortSignal): Promise<unknown> {
  const response = await win.fetch(SETTINGS_PATH, { credentials: 'same-origin', signal });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

export function startPerformance(win: BrowserWindow, reporter: ErrorReporter): PerformanceCollector {
  const abort = new AbortController();
  const collector = startPerformanceCollector({
    pagePath: win.location.pathname,
    fetchSettings: () => fetchSettings(win, abort.signal),
    setTimer: (run, ms) => win.setTimeout(run, ms),
    clearTimer: (timer) => win.clearTimeout(timer as number),
    send: (json) => sendRecords(win, json),
    reportError: (message) => {
      abort.abort();
      reporter.report({ url: win.location.href, userAgent: win.navigator.userAgent, app: 'vitrine-web', message });
    },
    onHidden: (run) => onHidden(win, run),
    hidden: () => win.document.visibilityState === 'hidden',
  });
  const add = (metric: { name: string; value: number; rating: string; id: string }) => collector.add(metric);
  onLCP(add);
  onINP(add);
  onCLS(add);
  return collector;
}
