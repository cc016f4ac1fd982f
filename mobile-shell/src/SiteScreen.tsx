//! The screen that shows the site: a native header with the cart badge, the web view with the
//! bridge, pull to refresh, an offline screen, and Android's back button going back in the web
//! view's history before leaving. Message handling lives in `bridge/`; this only wires it.

import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { BackHandler, Linking, Platform, Pressable, RefreshControl, ScrollView, StyleSheet, Text, View } from 'react-native';
import { WebView, type WebViewMessageEvent, type WebViewNavigation } from 'react-native-webview';
import type { ShouldStartLoadRequest } from 'react-native-webview/lib/WebViewTypes';
import { bootstrapScript, fromChannel, newChannel, replyScript } from './bridge/bootstrap';
import { handleMessage } from './bridge/handler';
import { navigationDecision } from './bridge/navigation';
import type { ShellConfig } from './config';

export interface SiteScreenProps {
  readonly config: ShellConfig;
  /** Closes this screen and returns to the app's own screen. */
  readonly onDismiss: () => void;
  readonly platform?: string;
  readonly consent?: 'accepted' | 'declined' | null;
}

export function SiteScreen({ config, onDismiss, platform = Platform.OS, consent = null }: SiteScreenProps): React.JSX.Element {
  const webView = useRef<WebView>(null);
  const canGoBack = useRef(false);
  const channel = useMemo(() => newChannel(), []);
  const [cartCount, setCartCount] = useState<number | undefined>(undefined);
  const [offline, setOffline] = useState(false);
  const [atTop, setAtTop] = useState(true);
  const [refreshing, setRefreshing] = useState(false);
  const [load, setLoad] = useState(0);

  const bootstrap = useMemo(() => bootstrapScript({ platform, provides: config.provides, consent, channel }), [platform, config.provides, consent, channel]);

  const onMessage = useCallback(
    (event: WebViewMessageEvent) => {
      const { fromMainFrame, message } = fromChannel(event.nativeEvent.data, channel);
      const handled = handleMessage(message, { url: event.nativeEvent.url, topFrame: fromMainFrame }, { allowedOrigin: config.origin, platform });
      if (handled.refusal !== undefined) console.warn(`Vitrine shell: refused ${handled.refusal}`);
      if (handled.reply !== null) webView.current?.injectJavaScript(replyScript(handled.reply));
      if (handled.effect.kind === 'info') setCartCount(handled.effect.info.cartCount);
      if (handled.effect.kind === 'dismiss') onDismiss();
    },
    [channel, config.origin, platform, onDismiss],
  );

  const onShouldStartLoadWithRequest = useCallback(
    (request: ShouldStartLoadRequest) => {
      const decision = navigationDecision(request.url, request.isTopFrame ?? true, config.origin);
      if (decision === 'open-in-browser') void Linking.openURL(request.url).catch(() => undefined);
      return decision === 'load';
    },
    [config.origin],
  );

  useEffect(() => {
    const subscription = BackHandler.addEventListener('hardwareBackPress', () => {
      if (canGoBack.current) webView.current?.goBack();
      else onDismiss();
      return true;
    });
    return () => subscription.remove();
  }, [onDismiss]);

  const retry = () => {
    setOffline(false);
    setLoad((n) => n + 1);
  };
  const refresh = () => {
    setRefreshing(true);
    webView.current?.reload();
  };

  return (
    <View style={styles.screen}>
      <View style={styles.header} accessibilityRole="header">
        <Pressable accessibilityRole="button" accessibilityLabel="Close" onPress={onDismiss} style={styles.headerButton}>
          <Text style={styles.headerButtonText}>Close</Text>
        </Pressable>
        <Text style={styles.title}>{config.appName}</Text>
        <Text style={styles.badge} accessibilityLabel={cartCount === undefined ? 'Cart' : `Cart, ${cartCount} items`} testID="cart-badge">
          {cartCount === undefined ? 'Cart' : `Cart ${cartCount > 99 ? '99+' : cartCount}`}
        </Text>
      </View>
      {offline ? (
        <View style={styles.offline} testID="offline-screen">
          <Text style={styles.offlineTitle}>You are offline</Text>
          <Text>Check your connection, then try again.</Text>
          <Pressable accessibilityRole="button" onPress={retry} style={styles.retry}>
            <Text style={styles.headerButtonText}>Try again</Text>
          </Pressable>
        </View>
      ) : (
        <ScrollView
          contentContainerStyle={styles.fill}
          refreshControl={<RefreshControl refreshing={refreshing} enabled={atTop} onRefresh={refresh} />}
        >
          <WebView
            key={load}
            ref={webView}
            source={{ uri: config.siteUrl }}
            // Every address passes here and onShouldStartLoadWithRequest decides, so a frame from
            // elsewhere is refused instead of opening the system browser.
            originWhitelist={['*']}
            injectedJavaScriptBeforeContentLoaded={bootstrap}
            injectedJavaScriptBeforeContentLoadedForMainFrameOnly
            injectedJavaScriptForMainFrameOnly
            onMessage={onMessage}
            onShouldStartLoadWithRequest={onShouldStartLoadWithRequest}
            onNavigationStateChange={(state: WebViewNavigation) => {
              canGoBack.current = state.canGoBack;
            }}
            onLoadEnd={() => setRefreshing(false)}
            onError={() => setOffline(true)}
            onScroll={(event) => setAtTop(event.nativeEvent.contentOffset.y <= 0)}
            setSupportMultipleWindows={false}
            javaScriptCanOpenWindowsAutomatically={false}
            allowFileAccess={false}
            allowsBackForwardNavigationGestures
            style={styles.fill}
          />
        </ScrollView>
      )}
    </View>
  );
}

const styles = StyleSheet.create({
  screen: { flex: 1, backgroundColor: '#ffffff' },
  fill: { flex: 1 },
  header: { flexDirection: 'row', alignItems: 'center', justifyContent: 'space-between', paddingHorizontal: 12, paddingVertical: 10, borderBottomWidth: 1, borderColor: '#dddddd' },
  headerButton: { padding: 6 },
  headerButtonText: { color: '#1a4f8b', fontSize: 16 },
  title: { fontSize: 17, fontWeight: '600', color: '#111111' },
  badge: { fontSize: 16, color: '#111111' },
  offline: { flex: 1, alignItems: 'center', justifyContent: 'center', gap: 12, padding: 24 },
  offlineTitle: { fontSize: 20, fontWeight: '600' },
  retry: { paddingHorizontal: 16, paddingVertical: 10, borderWidth: 1, borderColor: '#1a4f8b', borderRadius: 6 },
});
