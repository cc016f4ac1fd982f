//! The app: its own home screen, and the site screen opened from it. Dismissing the site (the
//! page's `dismiss`, the Close button, or Android back with no history) returns home.

import React, { useCallback, useState } from 'react';
import { Pressable, StyleSheet, Text, View } from 'react-native';
import { shellConfig, type ShellConfig } from './config';
import { SiteScreen } from './SiteScreen';

export function App({ config = shellConfig }: { readonly config?: ShellConfig }): React.JSX.Element {
  const [siteOpen, setSiteOpen] = useState(false);
  const close = useCallback(() => setSiteOpen(false), []);
  return (
    <View style={styles.fill}>
      {siteOpen ? (
        <SiteScreen config={config} onDismiss={close} />
      ) : (
        <View style={styles.home} testID="home-screen">
          <Text style={styles.title}>{config.appName}</Text>
          <Pressable accessibilityRole="button" onPress={() => setSiteOpen(true)} style={styles.open}>
            <Text style={styles.openText}>Open the shop</Text>
          </Pressable>
        </View>
      )}
    </View>
  );
}

const styles = StyleSheet.create({
  fill: { flex: 1, backgroundColor: '#ffffff' },
  home: { flex: 1, alignItems: 'center', justifyContent: 'center', gap: 16 },
  title: { fontSize: 24, fontWeight: '600', color: '#111111' },
  open: { paddingHorizontal: 20, paddingVertical: 12, borderRadius: 6, backgroundColor: '#1a4f8b' },
  openText: { color: '#ffffff', fontSize: 17 },
});
