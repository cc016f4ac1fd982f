import { beforeEach, describe, expect, it, vi } from 'vitest';

import { POPUP_RECORD_KEY, STORAGE_UNAVAILABLE_WARNING, closedRecord, popupRecordStore, submittedRecord } from './storage';

describe('popup record storage', () => {
  beforeEach(() => {
    window.localStorage.clear();
    document.cookie = `${POPUP_RECORD_KEY}=; Max-Age=0; Path=/`;
  });

  it('keeps the record in local storage under the spec key', () => {
    const store = popupRecordStore(window);
    store.write(submittedRecord(2, 5));
    expect(window.localStorage.getItem(POPUP_RECORD_KEY)).toBe('{"date-closed":5,"version":2,"submitted":true}');
    expect(store.read()).toEqual({ 'date-closed': 5, version: 2, submitted: true });
  });

  it('treats junk as no record', () => {
    window.localStorage.setItem(POPUP_RECORD_KEY, 'not json');
    expect(popupRecordStore(window).read()).toBeNull();
  });

  it('falls back to a cookie with a warning when storage is unavailable', () => {
    const broken = Object.create(window) as Window;
    Object.defineProperty(broken, 'localStorage', {
      get() {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    Object.defineProperty(broken, 'document', { value: document });
    const warn = vi.fn();
    const store = popupRecordStore(broken, warn);
    expect(warn).toHaveBeenCalledWith(STORAGE_UNAVAILABLE_WARNING);
    store.write(closedRecord(null, 3, 9));
    expect(store.read()).toEqual({ 'date-closed': 9, version: 3, submitted: false });
  });

  it('keeps a submission only for the same version when closing', () => {
    expect(closedRecord(submittedRecord(2, 1), 2, 5).submitted).toBe(true);
    expect(closedRecord(submittedRecord(1, 1), 2, 5).submitted).toBe(false);
  });
});
