//! Where the popup record lives (001 s3): local storage under `squarespace-popup-overlay`, or a
//! cookie of that name when storage is unavailable, with a warning, as the spec says.

import { readCookie } from '../runtime/request/crumb';
import type { PopupRecord } from './rules';

export const POPUP_RECORD_KEY = 'squarespace-popup-overlay';
/** The warning logged when local storage cannot be used. */
export const STORAGE_UNAVAILABLE_WARNING = 'Local storage is unavailable; the popup overlay record is kept in a cookie.';
/** How long the fallback cookie lives: a year, so displayFrequency days can pass. */
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export interface PopupRecordStore {
  read(): PopupRecord | null;
  write(record: PopupRecord): void;
}

function parse(text: string | null | undefined): PopupRecord | null {
  if (text === null || text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    const closed = record['date-closed'];
    return {
      'date-closed': typeof closed === 'number' ? closed : null,
      version: typeof record['version'] === 'number' ? record['version'] : 0,
      submitted: record['submitted'] === true,
    };
  } catch {
    // An unreadable record counts as none, so the popup shows rather than hiding for ever.
    return null;
  }
}

function usableStorage(win: Window): Storage | undefined {
  try {
    const storage = win.localStorage;
    const probe = `${POPUP_RECORD_KEY}-probe`;
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return undefined;
  }
}

/** The record store of this browser. */
export function popupRecordStore(win: Window, warn: (message: string) => void = console.warn): PopupRecordStore {
  const storage = usableStorage(win);
  if (storage !== undefined) {
    return {
      read: () => parse(storage.getItem(POPUP_RECORD_KEY)),
      write: (record) => storage.setItem(POPUP_RECORD_KEY, JSON.stringify(record)),
    };
  }
  warn(STORAGE_UNAVAILABLE_WARNING);
  const doc = win.document;
  return {
    read: () => parse(readCookie(doc, POPUP_RECORD_KEY)),
    write: (record) => {
      doc.cookie = `${POPUP_RECORD_KEY}=${encodeURIComponent(JSON.stringify(record))}; Max-Age=${COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax`;
    },
  };
}

/** The record after closing the popup of `version` at `nowMs`. */
export function closedRecord(previous: PopupRecord | null, version: number, nowMs: number): PopupRecord {
  const submitted = previous !== null && previous.submitted && previous.version === version;
  return { 'date-closed': nowMs, version, submitted };
}

/** The record after submitting the popup's form of `version` at `nowMs`. */
export function submittedRecord(version: number, nowMs: number): PopupRecord {
  return { 'date-closed': nowMs, version, submitted: true };
}
