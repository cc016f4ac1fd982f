//! A stand-in for the app's injected message handler, for the bridge client's unit tests.

import type { NativeAppHandler } from './detection';

export interface FakeApp extends NativeAppHandler {
  /** Every message the page posted, in order. */
  readonly posted: string[];
  /** Sends a reply to the page as the app's `injectJavaScript` would. */
  reply(message: string): void;
}

export function fakeApp(platform = 'android', extra: Partial<Pick<NativeAppHandler, 'provides' | 'consent'>> = {}): FakeApp {
  const listeners = new Set<(message: string) => void>();
  const posted: string[] = [];
  return {
    version: 1,
    platform,
    provides: extra.provides ?? [],
    consent: extra.consent ?? null,
    posted,
    postMessage: (message) => void posted.push(message),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reply: (message) => listeners.forEach((listener) => listener(message)),
  };
}
