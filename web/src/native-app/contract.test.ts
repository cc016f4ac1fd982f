//! Replays the recorded envelopes the shell's tests replay too (`mobile-shell/contract/envelopes.json`).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fixture from '../../../mobile-shell/contract/envelopes.json';
import { REPLY_TIMEOUT_MS, createBridgeClient } from './bridge-client';
import { MAX_ID_CHARS, MAX_MESSAGE_BYTES } from './envelope';
import { fakeApp } from './test-support';

interface Exchange {
  readonly case: string;
  readonly appPlatform: string;
  readonly request: string;
  readonly reply: string | null;
  readonly page?: { resolves?: unknown; rejects?: string; refusedBeforeSending?: string };
}

const exchanges = fixture.exchanges as readonly Exchange[];

function clientFor(platform: string, id: string) {
  const app = fakeApp(platform);
  const bridge = createBridgeClient({ window, mode: { kind: 'app', handler: app }, inFrame: false, newId: () => id });
  return { app, bridge };
}

describe('recorded envelopes, from the page', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('agrees on the limits', () => {
    expect(fixture.limits).toEqual({ maxMessageBytes: MAX_MESSAGE_BYTES, maxIdChars: MAX_ID_CHARS });
  });

  for (const exchange of exchanges.filter((e) => e.page !== undefined)) {
    it(exchange.case, async () => {
      const request = JSON.parse(exchange.request) as { id: string; name: string; payload: Record<string, unknown> };
      const { app, bridge } = clientFor(exchange.appPlatform, request.id);
      const call = bridge.call(request.name, request.payload);
      const page = exchange.page!;
      if (page.refusedBeforeSending !== undefined) {
        await expect(call).rejects.toThrow(page.refusedBeforeSending);
        expect(app.posted).toEqual([]);
        return;
      }
      // Names the page knows are sent byte for byte as recorded; an unknown one never leaves the page.
      if (app.posted.length > 0) {
        expect(app.posted).toEqual([exchange.request]);
        app.reply(exchange.reply!);
      }
      if (page.rejects !== undefined) await expect(call).rejects.toThrow(page.rejects);
      else await expect(call).resolves.toEqual(page.resolves);
    });
  }

  for (const recorded of fixture.pageReplies) {
    it(recorded.case, async () => {
      const { app, bridge } = clientFor('ios', recorded.pending.id);
      const outcomes: string[] = [];
      const call = bridge.call(recorded.pending.name, {}).then(
        () => outcomes.push('resolved'),
        (error: Error) => outcomes.push(error.message),
      );
      for (const [index, message] of recorded.messages.entries()) {
        app.reply(message);
        // Let a settled promise run its handlers before looking.
        await vi.advanceTimersByTimeAsync(0);
        if (index < recorded.settledBy) expect(outcomes).toEqual([]);
      }
      vi.advanceTimersByTime(REPLY_TIMEOUT_MS);
      await call;
      const settling = JSON.parse(recorded.messages[recorded.settledBy]!) as { ok: boolean; error?: string };
      expect(outcomes).toEqual([settling.ok ? 'resolved' : settling.error]);
    });
  }
});
