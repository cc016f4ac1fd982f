import { isAllowedOrigin, navigationDecision } from './navigation';

const site = 'https://shop.example';

describe('the origin allow-list', () => {
  it('allows the configured origin only, scheme, host and port alike', () => {
    expect(isAllowedOrigin('https://shop.example/cart?x=1', site)).toBe(true);
    expect(isAllowedOrigin('http://shop.example/', site)).toBe(false);
    expect(isAllowedOrigin('https://shop.example:8443/', site)).toBe(false);
    expect(isAllowedOrigin('https://shop.example.evil.example/', site)).toBe(false);
    expect(isAllowedOrigin('https://evil.example/?https://shop.example', site)).toBe(false);
    expect(isAllowedOrigin('javascript:alert(1)', site)).toBe(false);
  });

  it('loads the site, opens other pages in the system browser, refuses the rest', () => {
    expect(navigationDecision('https://shop.example/about', true, site)).toBe('load');
    expect(navigationDecision('https://maps.example/x', true, site)).toBe('open-in-browser');
    expect(navigationDecision('mailto:hi@shop.example', true, site)).toBe('open-in-browser');
    expect(navigationDecision('javascript:alert(1)', true, site)).toBe('refuse');
    expect(navigationDecision('file:///data/secret', true, site)).toBe('refuse');
    expect(navigationDecision('intent://scan#Intent;end', true, site)).toBe('refuse');
    expect(navigationDecision('about:blank', true, site)).toBe('refuse');
  });

  it('refuses frames from anywhere but the site', () => {
    expect(navigationDecision('https://evil.example/frame', false, site)).toBe('refuse');
    expect(navigationDecision('https://shop.example/embed', false, site)).toBe('load');
    expect(navigationDecision('about:blank', false, site)).toBe('load');
  });
});
