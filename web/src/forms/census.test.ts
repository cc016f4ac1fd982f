//! The form-render census event carries the form id, the page fields and the visitor cookie only when there is one.

import { describe, expect, it } from 'vitest';
import { cookieValue, formRenderEvent } from './census';

describe('the form-render event', () => {
  it('names the form and the page, and the visitor when tracked', () => {
    const page = { cookies: 'crumb=abc; ss_cvr=v1%7C1%7C2%7C3%7C4', path: '/contact', title: 'Contact', collectionId: 'c1' };
    expect(formRenderEvent('contact', page)).toEqual({
      formId: 'contact',
      pagePath: '/contact',
      pageTitle: 'Contact',
      collectionId: 'c1',
      visitorCookie: 'v1|1|2|3|4',
    });
    expect(formRenderEvent('contact', { ...page, cookies: 'crumb=abc' })).not.toHaveProperty('visitorCookie');
  });

  it('reads cookies by exact name', () => {
    expect(cookieValue('ss_cvrx=1; ss_cvr=2', 'ss_cvr')).toBe('2');
    expect(cookieValue('', 'ss_cvr')).toBeUndefined();
  });
});
