import { describe, expect, it } from 'vitest';

import vectors from '../generated/popup-vectors.json';
import { decide, type PageSituation, type PopupDecision, type PopupRecord, type PopupSettings } from './rules';

interface Vector {
  settings: PopupSettings;
  record: PopupRecord | null;
  page: PageSituation;
  expected: PopupDecision;
}

describe('popup display rules', () => {
  const all = vectors as Vector[];

  it('has vectors generated from the Rust rules', () => {
    expect(all.length).toBeGreaterThan(100);
  });

  it('decides every vector as the core does', () => {
    const mismatches = all.filter((v) => JSON.stringify(decide(v.settings, v.record, v.page)) !== JSON.stringify(v.expected));
    expect(mismatches).toEqual([]);
  });
});
