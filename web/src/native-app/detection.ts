//! Native-app mode (000 s1, 001 s4): the page runs inside the app when the app injected its
//! message handler (`window.VitrineNativeApp`, see `mobile-shell/src/bridge/bootstrap.ts`), or
//! on the mobile-app web platform when the address says `platform=mobile-app`. Small and
//! synchronous, so the common script can flag the page view and hide what the app provides
//! before the bridge client's chunk arrives.

/** The query parameter of the mobile-app web platform. */
export const PLATFORM_PARAMETER = 'platform';
export const MOBILE_APP_PLATFORM = 'mobile-app';
/** Where the app puts its message handler, before any page script runs. */
export const NATIVE_APP_GLOBAL = 'VitrineNativeApp';
/** Set on `<html>` in native-app mode; lists what the app shows itself (`header`, `cart`). */
export const PROVIDES_ATTRIBUTE = 'data-native-app-provides';

/** What the app injects: the same shape the React Native shell's bootstrap script builds. */
export interface NativeAppHandler {
  readonly version: number;
  /** The app's operating system as React Native names it: `android` or `ios`. */
  readonly platform: string;
  /** Parts of the page the app shows natively, so the page hides its own: `header`, `cart`. */
  readonly provides: readonly string[];
  /** The visitor's consent as the app asked for it, when the app has its own consent screen. */
  readonly consent: 'accepted' | 'declined' | null;
  postMessage(message: string): void;
  /** Calls `listener` with every reply the app sends; returns the unsubscribe function. */
  subscribe(listener: (message: string) => void): () => void;
}

export type NativeAppMode =
  | { readonly kind: 'app'; readonly handler: NativeAppHandler }
  | { readonly kind: 'web-platform' }
  | { readonly kind: 'none' };

function isHandler(value: unknown): value is NativeAppHandler {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate['postMessage'] === 'function' && typeof candidate['subscribe'] === 'function';
}

/** True when the page is inside a frame, where the bridge never runs. */
export function inFrame(win: Window): boolean {
  try {
    return win.top !== win.self;
  } catch {
    // A cross-origin parent throws on access: that is a frame too.
    return true;
  }
}

/** How this page runs. A page inside a frame is never in native-app mode. */
export function nativeAppMode(win: Window): NativeAppMode {
  if (inFrame(win)) return { kind: 'none' };
  const handler = (win as unknown as Record<string, unknown>)[NATIVE_APP_GLOBAL];
  if (isHandler(handler)) return { kind: 'app', handler };
  const platform = new URL(win.location.href).searchParams.get(PLATFORM_PARAMETER);
  return platform === MOBILE_APP_PLATFORM ? { kind: 'web-platform' } : { kind: 'none' };
}

/** The app's consent decision, when the page runs inside an app that supplies one. */
export function nativeAppConsent(mode: NativeAppMode): 'accepted' | 'declined' | undefined {
  if (mode.kind !== 'app') return undefined;
  const consent = mode.handler.consent;
  return consent === 'accepted' || consent === 'declined' ? consent : undefined;
}

/** What the app shows natively, of the parts the page knows how to hide. */
export function providedParts(mode: NativeAppMode): string[] {
  if (mode.kind !== 'app' || !Array.isArray(mode.handler.provides)) return [];
  return mode.handler.provides.filter((part) => part === 'header' || part === 'cart');
}

/** Marks `<html>` so the stylesheet hides the parts the app provides. */
export function markNativeApp(doc: Document, mode: NativeAppMode): void {
  if (mode.kind === 'none') return;
  doc.documentElement.setAttribute(PROVIDES_ATTRIBUTE, providedParts(mode).join(' '));
}
