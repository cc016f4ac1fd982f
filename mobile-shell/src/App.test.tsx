import React from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react-native';
import { webViewCalls } from './test-support/webview-mock';
import { App } from './App';
import { readConfig } from './config';

jest.mock('react-native-webview', () => require('./test-support/webview-mock'));

describe('the app', () => {
  it("opens the site from its own screen and returns there when the page dismisses", () => {
    render(<App config={readConfig({ siteUrl: 'https://shop.example/', appName: 'Test Shop', provides: [] })} />);
    fireEvent.press(screen.getByText('Open the shop'));
    expect(screen.getByTestId('site-web-view')).toBeOnTheScreen();
    const props = webViewCalls.props!;
    const channel = /var channel = "([^"]+)"/.exec(props['injectedJavaScriptBeforeContentLoaded'] as string)![1];
    const data = `${channel}{"v":1,"id":"bye","name":"dismiss","payload":{"backUrl":"https://shop.example/"}}`;
    act(() => props['onMessage']({ nativeEvent: { data, url: 'https://shop.example/shop' } }));
    expect(screen.getByTestId('home-screen')).toBeOnTheScreen();
    expect(screen.queryByTestId('site-web-view')).toBeNull();
  });

  it('refuses a config whose site is not an http(s) address', () => {
    expect(() => readConfig({ siteUrl: 'file:///sdcard/site.html', appName: 'x', provides: [] })).toThrow(/siteUrl must be an http\(s\) address/);
  });
});
