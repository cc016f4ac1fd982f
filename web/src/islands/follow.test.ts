//! Tests of the follow button island: nothing from the platform before consent, one script for
//! the page once cookies are accepted, the platform's button on success, and the first-party link
//! kept when the script fails or takes longer than 10 s.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CONSENT_EVENT } from '../consent/banner-markup';
import { FOLLOW_SCRIPT_TIMEOUT_MS, parseFollowProps } from '../blocks/follow-rules';
import { mount } from './follow';

const SCRIPT = 'https://platform.example/widgets.js';
const PROPS = { script: SCRIPT, timeoutMs: FOLLOW_SCRIPT_TIMEOUT_MS };

/** A fresh document per test: the script is loaded once per document. */
function page(blocks: number): { doc: Document; elements: HTMLElement[] } {
  const doc = document.implementation.createHTMLDocument('Follow');
  // The implementation's document has no window of its own; the test window stands in.
  Object.defineProperty(doc, 'defaultView', { value: window });
  const elements = Array.from({ length: blocks }, (_, index) => {
    const element = doc.createElement('div');
    element.innerHTML = `<p data-follow-button><a class="twitter-follow-button" href="https://twitter.com/terraluz">Follow @terraluz</a></p>`;
    element.id = `follow-${index}`;
    doc.body.append(element);
    return element;
  });
  return { doc, elements };
}

const scripts = (doc: Document) => [...doc.querySelectorAll<HTMLScriptElement>('script')];
const accept = () => window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { choice: 'accepted' } }));
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('follow button island', () => {
  const reported: unknown[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    reported.length = 0;
    window.reportError = (error: unknown) => reported.push(error);
  });
  afterEach(() => {
    vi.useRealTimers();
    delete (window as { twttr?: unknown }).twttr;
  });

  it('asks the platform for nothing before consent, and once for the page after it', async () => {
    const { doc, elements } = page(2);
    const unmounts = elements.map((element) => mount(element, PROPS));
    expect(scripts(doc)).toEqual([]);
    expect(elements.map((element) => element.dataset['followState'])).toEqual(['waiting', 'waiting']);
    window.dispatchEvent(new CustomEvent(CONSENT_EVENT, { detail: { choice: 'declined' } }));
    expect(scripts(doc)).toEqual([]);

    accept();
    expect(scripts(doc).map((script) => script.src)).toEqual([SCRIPT]);
    expect(elements.map((element) => element.dataset['followState'])).toEqual(['loading', 'loading']);

    const drawn: Element[] = [];
    (window as { twttr?: unknown }).twttr = { widgets: { load: (element: Element) => drawn.push(element) } };
    scripts(doc)[0]!.dispatchEvent(new Event('load'));
    await flush();
    expect(elements.map((element) => element.dataset['followState'])).toEqual(['loaded', 'loaded']);
    expect(drawn).toEqual(elements.map((element) => element.querySelector('[data-follow-button]')));
    expect(reported).toEqual([]);
    unmounts.forEach((unmount) => unmount());
  });

  it('loads at once when cookies were accepted earlier', () => {
    const { doc, elements } = page(1);
    Object.defineProperty(doc, 'cookie', { value: 'ss_cookieAllowed=true' });
    mount(elements[0]!, PROPS);
    expect(scripts(doc).map((script) => script.src)).toEqual([SCRIPT]);
  });

  it('keeps the link and reports the failure when the script cannot load', async () => {
    const { doc, elements } = page(1);
    mount(elements[0]!, PROPS);
    accept();
    scripts(doc)[0]!.dispatchEvent(new Event('error'));
    await flush();
    expect(elements[0]!.dataset['followState']).toBe('failed');
    expect(elements[0]!.querySelector('a')?.textContent).toBe('Follow @terraluz');
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toContain('could not be loaded');
  });

  it('gives up after 10 s, keeping the link', async () => {
    const { elements } = page(1);
    mount(elements[0]!, PROPS);
    accept();
    await vi.advanceTimersByTimeAsync(FOLLOW_SCRIPT_TIMEOUT_MS - 1);
    expect(elements[0]!.dataset['followState']).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    expect(elements[0]!.dataset['followState']).toBe('failed');
    expect(String(reported[0])).toContain('did not load within 10 s');
    expect(elements[0]!.querySelector('a')?.getAttribute('href')).toBe('https://twitter.com/terraluz');
  });

  it('fails when the script defines no buttons', async () => {
    const { doc, elements } = page(1);
    mount(elements[0]!, PROPS);
    accept();
    scripts(doc)[0]!.dispatchEvent(new Event('load'));
    await flush();
    expect(elements[0]!.dataset['followState']).toBe('failed');
    expect(String(reported[0])).toContain('defined no buttons');
  });

  it('stops listening for consent once taken down', () => {
    const { doc, elements } = page(1);
    const unmount = mount(elements[0]!, PROPS);
    unmount();
    accept();
    expect(scripts(doc)).toEqual([]);
  });
});

describe('follow button props', () => {
  it('take only an https script, and the 10 s time-out by default', () => {
    expect(parseFollowProps({ script: SCRIPT })).toEqual(PROPS);
    expect(() => parseFollowProps({ script: 'http://platform.example/widgets.js' })).toThrow('https');
    expect(() => parseFollowProps(null)).toThrow('not an object');
  });
});
