//! Answers one bridge message from the web view: the origin and frame allow-list, the envelope
//! rules, the platform check, then `info` (the app keeps the page's report, e.g. for its cart
//! badge) or `dismiss` (the app closes the web view). Replies carry only the request's id and
//! the report's five fields, never anything of the app's own.

import { PLATFORM_NOT_IDENTIFIED, errorReply, okReply, parseRequest, type InfoReport } from './envelope';
import { isAllowedOrigin } from './navigation';

export interface MessageSource {
  /** The address of the page that posted, as the web view reports it. */
  readonly url: string;
  /** False when the message did not come through the main frame's handler. */
  readonly topFrame: boolean;
}

export interface HandlerSettings {
  /** The site's origin, e.g. `https://shop.example`. */
  readonly allowedOrigin: string;
  /** `Platform.OS`. */
  readonly platform: string;
}

export type BridgeEffect = { readonly kind: 'none' } | { readonly kind: 'info'; readonly info: InfoReport } | { readonly kind: 'dismiss' };

export interface HandledMessage {
  /** The reply to inject, or null when the message is refused unanswered. */
  readonly reply: string | null;
  readonly effect: BridgeEffect;
  /** Why the message was refused, for the app's log. */
  readonly refusal?: string;
}

const PLATFORMS = new Set(['android', 'ios']);
const NOTHING = { kind: 'none' } as const;

export function handleMessage(data: string, source: MessageSource, settings: HandlerSettings): HandledMessage {
  if (!source.topFrame) return { reply: null, effect: NOTHING, refusal: 'a message from a frame' };
  if (!isAllowedOrigin(source.url, settings.allowedOrigin)) {
    return { reply: null, effect: NOTHING, refusal: `a message from ${source.url}, outside ${settings.allowedOrigin}` };
  }
  const parsed = parseRequest(data);
  if (!parsed.ok) {
    const { id, error } = parsed.rejected;
    return { reply: id === null ? null : errorReply(id, error), effect: NOTHING, refusal: error };
  }
  const { id, call } = parsed.request;
  if (!PLATFORMS.has(settings.platform)) return { reply: errorReply(id, PLATFORM_NOT_IDENTIFIED), effect: NOTHING, refusal: PLATFORM_NOT_IDENTIFIED };
  if (call.name === 'info') {
    const { pageType, cartCount, signedIn, locale, experiments } = call.info;
    return { reply: okReply(id, { pageType, cartCount, signedIn, locale, experiments }), effect: { kind: 'info', info: call.info } };
  }
  return { reply: okReply(id, {}), effect: { kind: 'dismiss' } };
}
