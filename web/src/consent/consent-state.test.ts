import { describe, expect, it } from 'vitest';

import {
  clearingAssignments,
  consentCookieAssignment,
  effectiveConsent,
  trackingAllowed,
  type ConsentPolicy,
} from './consent-state';

const optIn: ConsentPolicy = { acceptType: 'OPT_IN', restrictive: false, absolute: false };

describe('consent state', () => {
  it('counts GPC as a decline unless the visitor decided', () => {
    expect(effectiveConsent(undefined, true)).toEqual({ kind: 'gpc-declined' });
    expect(effectiveConsent('true', true)).toEqual({ kind: 'decided', choice: 'accepted' });
    expect(effectiveConsent('junk', false)).toEqual({ kind: 'undecided' });
  });

  it('waits for consent under OPT_IN and restrictive policies', () => {
    expect(trackingAllowed(optIn, { kind: 'undecided' })).toBe(false);
    expect(trackingAllowed({ ...optIn, acceptType: 'OPT_IN_AND_OUT' }, { kind: 'undecided' })).toBe(true);
    expect(trackingAllowed({ ...optIn, acceptType: 'OPT_IN_AND_OUT', restrictive: true }, { kind: 'undecided' })).toBe(false);
    expect(trackingAllowed(optIn, { kind: 'decided', choice: 'accepted' })).toBe(true);
    expect(trackingAllowed({ ...optIn, absolute: true }, { kind: 'decided', choice: 'accepted' })).toBe(false);
  });

  it('stores decisions for 30 days', () => {
    expect(consentCookieAssignment('declined', false)).toBe('ss_cookieAllowed=false; Max-Age=2592000; Path=/; SameSite=Lax');
  });

  it('expires only the tracking cookies present, on host and domain', () => {
    expect(clearingAssignments('ss_cvr=a; crumb=b', 'shop.example', '/blog/post')).toEqual([
      'ss_cvr=; Max-Age=0; Path=/',
      'ss_cvr=; Max-Age=0; Path=/; Domain=shop.example',
      'ss_cvr=; Max-Age=0; Path=/blog',
      'ss_cvr=; Max-Age=0; Path=/blog; Domain=shop.example',
    ]);
    expect(clearingAssignments('SS_MID=1', '127.0.0.1', '/')).toEqual(['SS_MID=; Max-Age=0; Path=/']);
  });
});
