//! The simulated app: the React Native shell's own bootstrap script and message handler, run
//! around a Playwright page instead of a device. The page gets exactly the object the shell
//! injects; its messages reach the shell's handler in Node, and replies come back through the
//! shell's reply script, so the spec exercises the same code the app ships.

import type { Page } from '@playwright/test';
import { bootstrapScript, fromChannel, replyScript } from '../../../mobile-shell/src/bridge/bootstrap';
import { handleMessage, type BridgeEffect } from '../../../mobile-shell/src/bridge/handler';

export interface SimulatedAppOptions {
  readonly platform?: string;
  readonly provides?: readonly string[];
  readonly consent?: 'accepted' | 'declined' | null;
}

export interface SimulatedApp {
  /** Every message the app heard, in order, with what it did. */
  readonly heard: Array<{ readonly message: string; readonly reply: string | null; readonly effect: BridgeEffect; readonly topFrame: boolean }>;
  /** How many times the page dismissed the web view. */
  closed(): number;
  /** The cart count on the app's badge, from the last info. */
  cartCount(): number | undefined;
}

const CHANNEL = 'e2e0channel0secret0000000000000:';

export async function installSimulatedApp(page: Page, allowedOrigin: string, options: SimulatedAppOptions = {}): Promise<SimulatedApp> {
  const platform = options.platform ?? 'android';
  const heard: SimulatedApp['heard'] = [];
  await page.exposeBinding('__simulatedAppPost', async (source, data: string) => {
    const { fromMainFrame, message } = fromChannel(data, CHANNEL);
    const handled = handleMessage(message, { url: source.frame.url(), topFrame: fromMainFrame }, { allowedOrigin, platform });
    heard.push({ message, reply: handled.reply, effect: handled.effect, topFrame: fromMainFrame });
    if (handled.reply !== null) await source.frame.evaluate(replyScript(handled.reply));
  });
  // React Native's web view offers `window.ReactNativeWebView.postMessage` in every frame.
  await page.addInitScript(() => {
    (window as unknown as Record<string, unknown>)['ReactNativeWebView'] = {
      postMessage: (data: string) => (window as unknown as { __simulatedAppPost(d: string): Promise<void> }).__simulatedAppPost(data),
    };
  });
  await page.addInitScript(bootstrapScript({ platform, provides: options.provides ?? [], consent: options.consent ?? null, channel: CHANNEL }));
  return {
    heard,
    closed: () => heard.filter((entry) => entry.effect.kind === 'dismiss').length,
    cartCount: () => {
      const infos = heard.flatMap((entry) => (entry.effect.kind === 'info' ? [entry.effect.info.cartCount] : []));
      return infos.at(-1);
    },
  };
}
