import { describe, expect, it } from 'vitest';

import { hitPayload, pageViewExclusion, viewerExclusion } from './page-view';

describe('who is counted', () => {
  it('follows 000 s6', () => {
    expect(pageViewExclusion({ pageType: 2 }, '/', false)).toBeUndefined();
    expect(pageViewExclusion({ pageType: 2 }, '/', true)).toBe('census-disabled');
    expect(pageViewExclusion({ pageType: 100 }, '/x', false)).toBe('excluded-page');
    expect(pageViewExclusion({ pageType: 103 }, '/x', false)).toBe('excluded-page');
    expect(pageViewExclusion({ pageType: 106 }, '/x', false)).toBe('excluded-page');
    expect(pageViewExclusion({ pageType: 2 }, '/search', false)).toBe('search-page');
    expect(pageViewExclusion({ pageType: 2 }, '/config/pages', false)).toBe('config-path');
    expect(pageViewExclusion({ authenticatedAccount: { id: 'a' }, websiteRoles: { owner: 1 } }, '/', false)).toBe('owner-or-editor');
    expect(pageViewExclusion({ authenticatedAccount: { id: 'a' }, websiteRoles: { viewer: 1 } }, '/', false)).toBeUndefined();
  });
});

describe('whose button events are counted', () => {
  it('nobody while the census is off, and never an owner or editor, on any page', () => {
    expect(viewerExclusion({ pageType: 100 }, false)).toBeUndefined();
    expect(viewerExclusion({}, true)).toBe('census-disabled');
    expect(viewerExclusion({ authenticatedAccount: { id: 'a' }, websiteRoles: { owner: 1 } }, false)).toBe('owner-or-editor');
    expect(viewerExclusion({ authenticatedAccount: { id: 'a' }, websiteRoles: {} }, false)).toBe('owner-or-editor');
    expect(viewerExclusion({ authenticatedAccount: { id: 'a' }, websiteRoles: { viewer: 1 } }, false)).toBeUndefined();
  });
});

describe('the hit payload', () => {
  it('carries the native-app flag only in native-app mode', () => {
    expect(hitPayload({}, window, undefined, true)['nativeApp']).toBe(true);
    expect(hitPayload({}, window, undefined)).not.toHaveProperty('nativeApp');
  });
});
