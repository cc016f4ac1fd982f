//! The tracking cookies' formats (000 s3, s5, s9): the visitor cookie `ss_cvr` (id, first,
//! previous and current visit, count; pipe-separated; 2 years) and the visit cookie `ss_cvt` (a
//! positive timestamp; 30 minutes). Mirrors `vitrine_core::analytics`.

export const VISITOR_COOKIE = 'ss_cvr';
export const VISIT_COOKIE = 'ss_cvt';
export const VISITOR_COOKIE_MAX_AGE_SECONDS = 2 * 365 * 24 * 60 * 60;
export const VISIT_COOKIE_MAX_AGE_SECONDS = 30 * 60;

export interface VisitorCookie {
  readonly id: string;
  readonly firstVisitMs: number;
  readonly previousVisitMs: number;
  readonly currentVisitMs: number;
  readonly count: number;
}

const ID = /^[A-Za-z0-9-]{1,64}$/;
const POSITIVE = /^[0-9]+$/;

function positive(text: string): number | undefined {
  if (!POSITIVE.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Reads a visitor cookie: an id plus four positive integers, or undefined. */
export function parseVisitorCookie(value: string | undefined): VisitorCookie | undefined {
  const parts = value?.split('|');
  if (parts?.length !== 5 || !ID.test(parts[0]!)) return undefined;
  const [first, previous, current, count] = parts.slice(1).map(positive);
  if (first === undefined || previous === undefined || current === undefined || count === undefined) return undefined;
  return { id: parts[0]!, firstVisitMs: first, previousVisitMs: previous, currentVisitMs: current, count };
}

export function formatVisitorCookie(cookie: VisitorCookie): string {
  return [cookie.id, cookie.firstVisitMs, cookie.previousVisitMs, cookie.currentVisitMs, cookie.count].join('|');
}

/** Reads a visit cookie: one positive integer, or undefined. */
export function parseVisitCookie(value: string | undefined): number | undefined {
  return value === undefined ? undefined : positive(value);
}

/** The visitor cookie after a page view: a new visit moves the times and counts. */
export function afterPageView(
  previous: VisitorCookie | undefined,
  visitActive: boolean,
  nowMs: number,
  newId: () => string,
): VisitorCookie {
  const now = Math.max(1, nowMs);
  if (previous === undefined) return { id: newId(), firstVisitMs: now, previousVisitMs: now, currentVisitMs: now, count: 1 };
  if (visitActive) return previous;
  return {
    id: previous.id,
    firstVisitMs: previous.firstVisitMs,
    previousVisitMs: previous.currentVisitMs,
    currentVisitMs: Math.max(now, previous.currentVisitMs),
    count: previous.count + 1,
  };
}
