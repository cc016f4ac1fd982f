//! The timing helpers of 001 s8-s9: the throttle that spaces work by twice its own average cost,
//! and the wait-for-element poll.

import { THROTTLE_SAMPLES, WAIT_FOR_ELEMENT_POLL_MS } from '../generated/widget-constants';

/** Twice the average of the latest 22 run times, in ms; 0 before the first run. */
export function throttleWaitMs(runTimesMs: readonly number[]): number {
  const valid = runTimesMs.slice(-THROTTLE_SAMPLES).filter((ms) => Number.isFinite(ms) && ms >= 0);
  if (valid.length === 0) return 0;
  return (2 * valid.reduce((sum, ms) => sum + ms, 0)) / valid.length;
}

export interface ThrottleClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
}

/**
 * Wraps `work` so that calls made while it waits collapse into one run, started twice the
 * average run time after the previous run ended: expensive work slows itself down.
 */
export function throttle(work: () => void, clock: ThrottleClock = { now: () => performance.now(), setTimeout: (f, ms) => setTimeout(f, ms) }): () => void {
  const runs: number[] = [];
  let lastEnd = Number.NEGATIVE_INFINITY;
  let scheduled = false;
  const run = (): void => {
    scheduled = false;
    const start = clock.now();
    try {
      work();
    } finally {
      const end = clock.now();
      runs.push(end - start);
      if (runs.length > THROTTLE_SAMPLES) runs.shift();
      lastEnd = end;
    }
  };
  return () => {
    if (scheduled) return;
    const wait = lastEnd + throttleWaitMs(runs) - clock.now();
    if (wait <= 0) {
      run();
      return;
    }
    scheduled = true;
    clock.setTimeout(run, wait);
  };
}

/** The error of a wait that failed: what was missing, by its path (001 s8). */
export class ElementNotFoundError extends Error {
  constructor(readonly path: string) {
    super(`Element not found: ${path}`);
    this.name = 'ElementNotFoundError';
  }
}

/**
 * Resolves with the element `selector` finds inside `parent` (a selector or a node), looking
 * again every 100 ms; rejects with the missing path when the parent is missing or the element
 * has not appeared within `timeoutMs`.
 */
export function waitForElement(
  parent: ParentNode | string,
  selector: string,
  timeoutMs: number,
  doc: Document = document,
): Promise<Element> {
  const root = typeof parent === 'string' ? doc.querySelector(parent) : parent;
  const path = typeof parent === 'string' ? `${parent} ${selector}` : selector;
  if (root === null) return Promise.reject(new ElementNotFoundError(typeof parent === 'string' ? parent : path));
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = (): void => {
      const found = root.querySelector(selector);
      if (found !== null) resolve(found);
      else if (Date.now() - started >= timeoutMs) reject(new ElementNotFoundError(path));
      else setTimeout(look, WAIT_FOR_ELEMENT_POLL_MS);
    };
    look();
  });
}
