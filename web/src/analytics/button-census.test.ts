import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BUTTON_CENSUS_TIMEOUT_MS, buttonEvent, startButtonCensus } from './button-census';

const markup = `<div class="sqs-block button-block" id="block-hero-cta" data-block-type="53">
  <p class="button-wrap button-wrap--center"><a class="button button--large" href="/shop" target="_blank" rel="noopener noreferrer">Shop now<span class="visually-hidden"> (opens in a new tab)</span></a></p></div>`;

describe('button census', () => {
  beforeEach(() => {
    document.body.innerHTML = markup;
    document.cookie = 'ss_cvr=abc|1|1|1|1; path=/';
    // The page already holds a crumb, so events go out at once.
    document.cookie = 'crumb=c1; path=/';
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    document.cookie = 'ss_cvr=; Max-Age=0; path=/';
    document.cookie = 'crumb=; Max-Age=0; path=/';
  });

  it('describes a button block with the fields of 000 s7', () => {
    const block = document.querySelector<HTMLElement>('.button-block')!;
    expect(buttonEvent(block, '/', undefined)).toEqual({
      id: 'hero-cta',
      buttonText: 'Shop now',
      clickthroughUrl: 'http://localhost:3000/shop',
      alignment: 'center',
      size: 'large',
      newWindow: true,
      context: 'button-block',
      pagePath: '/',
    });
  });

  it('sends a render, then a click, with the visitor cookie only when tracking is allowed', () => {
    const bodies: Record<string, unknown>[] = [];
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        urls.push(url);
        bodies.push(JSON.parse(init.body as string) as Record<string, unknown>);
        return Promise.resolve(new Response(null, { status: 204 }));
      }),
    );
    expect(startButtonCensus({ window, tracking: false })).toBe(1);
    document.querySelector<HTMLAnchorElement>('a.button')!.addEventListener('click', (event) => event.preventDefault());
    document.querySelector<HTMLAnchorElement>('a.button')!.click();
    expect(urls.map((url) => new URL(url, 'http://x').pathname)).toEqual(['/api/census/button-render', '/api/census/button-click']);
    expect(bodies[1]).not.toHaveProperty('visitorCookie');
    startButtonCensus({ window, tracking: true });
    expect(bodies[2]).toMatchObject({ visitorCookie: 'abc|1|1|1|1' });
  });

  it('gives up after 2.5 s and swallows the failure', async () => {
    vi.useFakeTimers();
    let aborted = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => {
              aborted = true;
              reject(new DOMException('aborted', 'AbortError'));
            }),
          ),
      ),
    );
    startButtonCensus({ window, tracking: false });
    await vi.advanceTimersByTimeAsync(BUTTON_CENSUS_TIMEOUT_MS - 1);
    expect(aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(aborted).toBe(true);
  });
});
