//! Tests of reading the server-provided page context.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPageContext } from './page-context';

function contextScript(text: string): void {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'vitrine-page-context';
  script.textContent = text;
  document.body.append(script);
}

afterEach(() => document.body.replaceChildren());

describe('page context', () => {
  it('reads the JSON object the server wrote', () => {
    contextScript('{"website":{"id":"w1"},"pageType":"page"}');
    expect(readPageContext(document)).toEqual({ website: { id: 'w1' }, pageType: 'page' });
  });

  it('is empty without the element', () => {
    expect(readPageContext(document)).toEqual({});
  });

  it('is empty, with a console error, when the JSON is malformed or not an object', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    contextScript('{not json');
    expect(readPageContext(document)).toEqual({});
    document.body.replaceChildren();
    contextScript('[1,2]');
    expect(readPageContext(document)).toEqual({});
    expect(error).toHaveBeenCalledTimes(2);
  });
});
