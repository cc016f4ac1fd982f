import React from 'react';
import { BackHandler, Linking } from 'react-native';
import { act, fireEvent, render, screen } from '@testing-library/react-native';
import { webViewCalls } from './test-support/webview-mock';
import { SiteScreen } from './SiteScreen';
import { readConfig } from './config';

jest.mock('react-native-webview', () => require('./test-support/webview-mock'));

const config = readConfig({ siteUrl: 'https://shop.example/', appName: 'Test Shop', provides: ['cart', 'footer'] });
const report = { pageType: 'Page', cartCount: 3, signedIn: false, locale: 'en-US', experiments: {} };

/** Posts `envelope` as the page's handler would, through the channel of this load. */
function post(envelope: unknown, url = 'https://shop.example/shop') {
  const props = webViewCalls.props!;
  const channel = /var channel = "([^"]+)"/.exec(props['injectedJavaScriptBeforeContentLoaded'] as string)![1];
  act(() => props['onMessage']({ nativeEvent: { data: channel + JSON.stringify(envelope), url } }));
}

beforeEach(() => {
  webViewCalls.injectJavaScript.mockClear();
  webViewCalls.goBack.mockClear();
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

describe('the site screen', () => {
  it('shows the configured site with the bootstrap in the main frame only', () => {
    render(<SiteScreen config={config} onDismiss={jest.fn()} platform="android" />);
    const props = webViewCalls.props!;
    expect(props['source']).toEqual({ uri: 'https://shop.example/' });
    expect(props['injectedJavaScriptBeforeContentLoadedForMainFrameOnly']).toBe(true);
    expect(props['injectedJavaScriptBeforeContentLoaded']).toContain('"platform"'.slice(1, -1));
    expect(props['injectedJavaScriptBeforeContentLoaded']).toContain('Object.freeze(["cart"])');
  });

  it('answers info with the same id and follows the cart count on its badge', () => {
    render(<SiteScreen config={config} onDismiss={jest.fn()} platform="ios" />);
    post({ v: 1, id: 'abc', name: 'info', payload: report });
    expect(screen.getByTestId('cart-badge')).toHaveTextContent('Cart 3');
    const script = webViewCalls.injectJavaScript.mock.calls[0]![0];
    expect(script).toBe(`window.VitrineNativeApp && window.VitrineNativeApp.receive(${JSON.stringify(JSON.stringify({ v: 1, id: 'abc', ok: true, result: report }))});\ntrue;`);
  });

  it('closes on dismiss after answering it', () => {
    const onDismiss = jest.fn();
    render(<SiteScreen config={config} onDismiss={onDismiss} platform="android" />);
    post({ v: 1, id: 'd1', name: 'dismiss', payload: {} });
    expect(webViewCalls.injectJavaScript).toHaveBeenCalledTimes(1);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('ignores a foreign origin and a message outside the main frame channel', () => {
    const onDismiss = jest.fn();
    render(<SiteScreen config={config} onDismiss={onDismiss} platform="android" />);
    post({ v: 1, id: 'd1', name: 'dismiss', payload: {} }, 'https://evil.example/');
    act(() => webViewCalls.props!['onMessage']({ nativeEvent: { data: JSON.stringify({ v: 1, id: 'd2', name: 'dismiss', payload: {} }), url: 'https://shop.example/' } }));
    expect(onDismiss).not.toHaveBeenCalled();
    expect(webViewCalls.injectJavaScript).not.toHaveBeenCalled();
  });

  it('opens other sites in the system browser and refuses foreign frames', () => {
    const open = jest.spyOn(Linking, 'openURL').mockResolvedValue(true);
    render(<SiteScreen config={config} onDismiss={jest.fn()} platform="android" />);
    const decide = webViewCalls.props!['onShouldStartLoadWithRequest'] as (r: { url: string; isTopFrame: boolean }) => boolean;
    expect(decide({ url: 'https://shop.example/cart', isTopFrame: true })).toBe(true);
    expect(decide({ url: 'https://instagram.example/terraluz', isTopFrame: true })).toBe(false);
    expect(open).toHaveBeenCalledWith('https://instagram.example/terraluz');
    expect(decide({ url: 'https://ads.example/frame', isTopFrame: false })).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('shows an offline screen when the page cannot load, and tries again', () => {
    render(<SiteScreen config={config} onDismiss={jest.fn()} platform="android" />);
    act(() => webViewCalls.props!['onError']({ nativeEvent: { description: 'net::ERR_INTERNET_DISCONNECTED' } }));
    expect(screen.getByText('You are offline')).toBeOnTheScreen();
    fireEvent.press(screen.getByText('Try again'));
    expect(screen.queryByTestId('offline-screen')).toBeNull();
    expect(screen.getByTestId('site-web-view')).toBeOnTheScreen();
  });

  it('reloads on pull to refresh', () => {
    render(<SiteScreen config={config} onDismiss={jest.fn()} platform="ios" />);
    const refresh = screen.UNSAFE_getByType(require('react-native').RefreshControl);
    act(() => refresh.props.onRefresh());
    expect(webViewCalls.reload).toHaveBeenCalled();
  });

  it('sends Android back into the web view history first, then leaves', () => {
    const listeners: Array<() => boolean> = [];
    jest.spyOn(BackHandler, 'addEventListener').mockImplementation((_, listener) => {
      listeners.push(listener as () => boolean);
      return { remove: jest.fn() };
    });
    const onDismiss = jest.fn();
    render(<SiteScreen config={config} onDismiss={onDismiss} platform="android" />);
    act(() => webViewCalls.props!['onNavigationStateChange']({ canGoBack: true }));
    expect(listeners.at(-1)!()).toBe(true);
    expect(webViewCalls.goBack).toHaveBeenCalledTimes(1);
    expect(onDismiss).not.toHaveBeenCalled();
    act(() => webViewCalls.props!['onNavigationStateChange']({ canGoBack: false }));
    expect(listeners.at(-1)!()).toBe(true);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
