import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CONSENT_EVENT, bannerPending } from './banner-markup';
import { startCookieBanner } from './cookie-banner';

const MARKUP = `<main id="main" tabindex="-1"></main>
<section class="cookie-banner cookie-banner--bar cookie-banner--bottom" data-vitrine-cookie-banner data-banner-version="2" data-accept-type="OPT_IN" data-restrictive="true" data-restrictive-absolute="false" role="region" aria-label="Cookie consent" hidden>
<p id="cookie-banner-text">By using this website…</p>
<p data-gpc-notice hidden>GPC</p>
<button type="button" data-consent="accept">Accept</button>
<button type="button" data-consent="decline">Decline</button>
</section>`;

function clearCookies(): void {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]!.trim();
    if (name !== '') document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

function setGpc(value: boolean | undefined): void {
  Object.defineProperty(window.navigator, 'globalPrivacyControl', { value, configurable: true });
}

describe('cookie banner', () => {
  let fetchSpy: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    clearCookies();
    // The page already holds a crumb, so receipts go out at once.
    document.cookie = 'crumb=c1; Path=/';
    setGpc(undefined);
    document.body.innerHTML = MARKUP;
    fetchSpy = vi.fn(() => Promise.resolve(new Response('{}', { status: 201 })));
    vi.stubGlobal('fetch', fetchSpy);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows without a consent cookie and clears tracking cookies first under a restrictive policy', () => {
    document.cookie = 'ss_cvr=a|1|1|1|1; Path=/';
    expect(startCookieBanner({ window })).toBeDefined();
    expect(bannerPending(document)).toBe(true);
    expect(document.cookie).not.toContain('ss_cvr');
  });

  it('declines in one click, stores false, sends a receipt and removes itself', () => {
    const decisions: unknown[] = [];
    window.addEventListener(CONSENT_EVENT, (event) => decisions.push((event as CustomEvent).detail));
    startCookieBanner({ window });
    const decline = document.querySelector<HTMLButtonElement>('[data-consent="decline"]')!;
    decline.focus();
    decline.click();
    expect(document.cookie).toContain('ss_cookieAllowed=false');
    expect(document.querySelector('[data-vitrine-cookie-banner]')).toBeNull();
    expect(document.activeElement?.id).toBe('main');
    expect(JSON.parse(fetchSpy.mock.calls[0]![1].body as string)).toEqual({ choice: 'declined', source: 'banner' });
    expect(decisions).toEqual([{ choice: 'declined' }]);
  });

  it('accepts in one click', () => {
    startCookieBanner({ window });
    document.querySelector<HTMLButtonElement>('[data-consent="accept"]')!.click();
    expect(document.cookie).toContain('ss_cookieAllowed=true');
  });

  it('stays hidden once a decision exists', () => {
    document.cookie = 'ss_cookieAllowed=true; Path=/';
    expect(startCookieBanner({ window })).toBeUndefined();
    expect(bannerPending(document)).toBe(false);
  });

  it('treats GPC as a decline and says so', () => {
    setGpc(true);
    const banner = startCookieBanner({ window })!;
    expect(document.cookie).toContain('ss_cookieAllowed=false');
    expect(banner.querySelector('[data-gpc-notice]')!.hasAttribute('hidden')).toBe(false);
    expect(JSON.parse(fetchSpy.mock.calls[0]![1].body as string)).toEqual({ choice: 'declined', source: 'gpc' });
  });

  it('ignores clicks in the forced mode', () => {
    document.cookie = 'ss_cookieAllowed=true; Path=/';
    startCookieBanner({ window, forced: true });
    document.querySelector<HTMLButtonElement>('[data-consent="decline"]')!.click();
    expect(bannerPending(document)).toBe(true);
    expect(document.cookie).toContain('ss_cookieAllowed=true');
  });
});
