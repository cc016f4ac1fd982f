//! Replays the recorded envelopes the web client and the Playwright spec replay too.

import fixture from '../../contract/envelopes.json';
import { MAX_ID_CHARS, MAX_MESSAGE_BYTES } from './envelope';
import { handleMessage, type BridgeEffect } from './handler';

function recordedEffect(effect: BridgeEffect): Record<string, unknown> {
  if (effect.kind === 'info') return { cartCount: effect.info.cartCount };
  if (effect.kind === 'dismiss') return { closed: true };
  return {};
}

describe('recorded envelopes, in the app', () => {
  it('agrees on the limits', () => {
    expect(fixture.limits).toEqual({ maxMessageBytes: MAX_MESSAGE_BYTES, maxIdChars: MAX_ID_CHARS });
  });

  it.each(fixture.exchanges.map((exchange) => [exchange.case, exchange] as const))('%s', (_, exchange) => {
    const handled = handleMessage(exchange.request, exchange.from, { allowedOrigin: fixture.origin, platform: exchange.appPlatform });
    expect(handled.reply).toBe(exchange.reply);
    expect(recordedEffect(handled.effect)).toEqual(exchange.effect);
  });
});
