//! A stand-in for react-native-webview (its native module does not exist off-device): renders a
//! View, keeps the latest props so a test can fire the web view's events, and records the
//! imperative calls the screen makes.

import React, { forwardRef, useImperativeHandle } from 'react';
import { View } from 'react-native';

export const webViewCalls = {
  props: undefined as Record<string, any> | undefined,
  injectJavaScript: jest.fn<void, [string]>(),
  goBack: jest.fn(),
  reload: jest.fn(),
};

export const WebView = forwardRef(function WebView(props: Record<string, any>, ref) {
  webViewCalls.props = props;
  useImperativeHandle(ref, () => ({
    injectJavaScript: webViewCalls.injectJavaScript,
    goBack: webViewCalls.goBack,
    reload: webViewCalls.reload,
  }));
  return <View testID="site-web-view" />;
});
